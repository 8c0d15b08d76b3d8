/* store_errors.h - the store's error returns (store.h says when each is
 * given), apart from store.h so that the files store.c calls (store_sql.c,
 * store_schema.c, store_scan.c) return them without including store.h back. */
#ifndef OOMLAB_STORE_ERRORS_H
#define OOMLAB_STORE_ERRORS_H

#define STORE_EDB	(-1)
#define STORE_EINPUT	(-2)

#endif
