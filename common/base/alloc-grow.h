/* The one growable array of every C file, host and guest: an array ARR of
 * items, the number of them in use kept by the caller, and its capacity in a
 * size_t ALLOC, 0 while ARR is NULL. An ALLOC below the real capacity (an
 * array made by calloc, say) only makes the next growth come early; one
 * above it is a bug: reset ALLOC wherever ARR is freed or replaced.
 *
 *	struct thing *v = NULL;
 *	size_t n = 0, alloc = 0;
 *	ALLOC_GROW(v, n + 1, alloc);	(the lab: common/util.h; dies when out of memory)
 *	v[n++] = thing;
 *
 * The guest's programs, which handle running out of memory themselves, test
 * ALLOC_GROW_TRY(v, n + 1, alloc). Header only, system headers only: every
 * folder may include it, the guest-linked ones too (docs/ARCHITECTURE.md). */
#ifndef COMMON_BASE_ALLOC_GROW_H
#define COMMON_BASE_ALLOC_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The capacity to grow an array of ALLOC items of SIZE bytes each to, so that
 * it holds NEED: ALLOC itself when it does already, else half as much again
 * plus 8 (at least NEED), so that n appends cost O(n) copying; at most as many
 * items as fit in SIZE_MAX bytes. 0 when NEED items do not fit in a size_t of
 * bytes (or SIZE is 0): the caller must not allocate. */
static inline size_t alloc_grow_capacity(size_t need, size_t alloc, size_t size)
{
	if (!size || need > SIZE_MAX / size)
		return 0;
	if (need <= alloc)
		return alloc;
	size_t most = SIZE_MAX / size;
	size_t grown = most >= 8 && alloc <= (most - 8) / 3 * 2 ? alloc + alloc / 2 + 8 : most;
	return grown > need ? grown : need;
}

/* Makes room for NEED items in ARR (capacity ALLOC, a size_t lvalue): true
 * when there is room, grown with realloc if it had to be; false, ARR and
 * ALLOC as they were, when NEED items would overflow a size_t of bytes or
 * realloc fails. ARR and ALLOC are evaluated more than once, NEED once. */
#define ALLOC_GROW_TRY(arr, need, alloc)                                                    \
	__extension__({                                                                     \
		_Static_assert(__builtin_types_compatible_p(__typeof__(alloc), size_t),    \
			       "ALLOC_GROW's capacity must be a size_t");                   \
		size_t alloc_grow_need_ = (need);                                           \
		bool alloc_grow_ok_ = true;                                                 \
		if (alloc_grow_need_ > (alloc)) {                                           \
			size_t alloc_grow_n_ =                                              \
				alloc_grow_capacity(alloc_grow_need_, (alloc), sizeof(*(arr))); \
			void *alloc_grow_p_ =                                               \
				alloc_grow_n_ ? realloc((arr), alloc_grow_n_ * sizeof(*(arr))) \
					      : NULL;                                       \
			if (alloc_grow_p_) {                                                \
				(arr) = alloc_grow_p_;                                      \
				(alloc) = alloc_grow_n_;                                    \
			} else {                                                            \
				alloc_grow_ok_ = false;                                     \
			}                                                                   \
		}                                                                           \
		alloc_grow_ok_;                                                             \
	})

#endif
