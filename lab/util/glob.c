/* Globs as text (glob.h). A glob is read as tokens, each '*' or one
 * character's worth: a literal, '?', a bracket expression or '\' and the
 * character it escapes; what a one-character token matches is fnmatch's own
 * answer, so the two never disagree. */
#include "glob.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

struct token {
	const char *text;
	size_t len;
};

/* The length of the bracket expression at P, or 0 when it is not closed. */
static size_t bracket_len(const char *p)
{
	const char *q = p + 1;
	if (*q == '!' || *q == '^')
		q++;
	if (*q == ']')
		q++;
	while (*q && *q != ']') {
		if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
			/* [:alpha:], [.x.], [=x=] */
			const char close[] = { q[1], ']', '\0' };
			const char *end = strstr(q + 2, close);
			if (!end)
				return 0;
			q = end + 2;
		} else {
			q += (*q == '\\' && q[1]) ? 2 : 1;
		}
	}
	return *q == ']' ? (size_t)(q + 1 - p) : 0;
}

/* The length of the token at P (not at the end), or 0 when it is malformed. */
static size_t token_len(const char *p)
{
	if (*p == '\\')
		return p[1] ? 2 : 0;
	if (*p == '[')
		return bracket_len(p);
	return 1;
}

/* GLOB's tokens (malloc'd, *N of them), or NULL when it is malformed. */
static struct token *tokens(const char *glob, size_t *n)
{
	struct token *t = xcalloc(strlen(glob) + 1, sizeof(*t));
	*n = 0;
	for (const char *p = glob; *p;) {
		size_t len = token_len(p);
		if (!len) {
			free(t);
			return NULL;
		}
		t[(*n)++] = (struct token){ p, len };
		p += len;
	}
	return t;
}

static bool is_star(const struct token *t)
{
	return t->len == 1 && t->text[0] == '*';
}

/* True when the one-character token T matches C. */
static bool token_matches(const struct token *t, unsigned char c)
{
	if (t->len == 1 && t->text[0] != '?' && t->text[0] != '[')
		return (unsigned char)t->text[0] == c;
	char pattern[t->len + 1];
	memcpy(pattern, t->text, t->len);
	pattern[t->len] = '\0';
	const char name[] = { (char)c, '\0' };
	return fnmatch(pattern, name, 0) == 0;
}

/* True when some character matches both one-character tokens. */
static bool tokens_meet(const struct token *a, const struct token *b)
{
	for (int c = 1; c < 256; c++)
		if (token_matches(a, (unsigned char)c) && token_matches(b, (unsigned char)c))
			return true;
	return false;
}

/* True when some character but '.' matches the one-character token T. */
static bool takes_other_than_dot(const struct token *t)
{
	for (int c = 1; c < 256; c++)
		if (c != '.' && token_matches(t, (unsigned char)c))
			return true;
	return false;
}

const char *glob_malformed(const char *glob)
{
	for (const char *p = glob; *p;) {
		size_t len = token_len(p);
		if (!len)
			return *p == '\\' ? "a '\\' at its end escapes nothing" : "'[' without its ']'";
		p += len;
	}
	return NULL;
}

struct meeting {
	const struct token *a, *b;
	size_t na, nb;
	bool a_flat;            /* A's '*' takes no '.' */
	unsigned char *seen;    /* (na + 1) x (nb + 1) states */
};

/* Whether what is left of A from token I and of B from token J can match
 * one string. A character of that string is taken by a token of each, or by
 * a '*' of one and a one-character token of the other; one taken by two
 * '*'s could be left out of the string. */
static bool meet(struct meeting *m, size_t i, size_t j)
{
	if (i == m->na && j == m->nb)
		return true;
	unsigned char *seen = &m->seen[i * (m->nb + 1) + j];
	if (*seen)
		return false;
	*seen = 1;
	bool star_a = i < m->na && is_star(&m->a[i]), star_b = j < m->nb && is_star(&m->b[j]);
	if (star_a && meet(m, i + 1, j))
		return true;
	if (star_b && meet(m, i, j + 1))
		return true;
	if (i == m->na || j == m->nb || (star_a && star_b))
		return false;
	if (star_a)
		return (!m->a_flat || takes_other_than_dot(&m->b[j])) && meet(m, i, j + 1);
	if (star_b)
		return meet(m, i + 1, j);
	return tokens_meet(&m->a[i], &m->b[j]) && meet(m, i + 1, j + 1);
}

bool glob_intersects(const char *a, unsigned a_flags, const char *b)
{
	struct meeting m = { .a_flat = a_flags & GLOB_FLAT };
	struct token *ta = tokens(a, &m.na), *tb = tokens(b, &m.nb);
	bool yes = false;
	if (ta && tb) {
		m.a = ta;
		m.b = tb;
		m.seen = xcalloc((m.na + 1) * (m.nb + 1), 1);
		yes = meet(&m, 0, 0);
		free(m.seen);
	}
	free(ta);
	free(tb);
	return yes;
}

static size_t min2(size_t a, size_t b)
{
	return a < b ? a : b;
}

size_t glob_distance(const char *a, unsigned a_flags, const char *b)
{
	size_t na, nb;
	struct token *ta = tokens(a, &na), *tb = tokens(b, &nb);
	if (!ta || !tb) {
		free(ta);
		free(tb);
		return (size_t)-1;
	}
	/* d[i][j]: the distance of A's first i tokens from B's first j, in half
	 * edits: an edit costs 2, a token a '*' of the other side takes 1 */
	size_t *d = xcalloc((na + 1) * (nb + 1), sizeof(*d));
#define D(i, j) d[(i) * (nb + 1) + (j)]
	for (size_t i = 0; i <= na; i++) {
		for (size_t j = 0; j <= nb; j++) {
			const struct token *x = i ? &ta[i - 1] : NULL, *y = j ? &tb[j - 1] : NULL;
			bool star_x = x && is_star(x), star_y = y && is_star(y);
			size_t best = i || j ? (size_t)-1 : 0;
			if (x)          /* X left out, or X a '*' that takes nothing */
				best = min2(best, D(i - 1, j) + (star_x ? 0 : 2));
			if (y)
				best = min2(best, D(i, j - 1) + (star_y ? 0 : 2));
			if (x && y && !star_x && !star_y)
				best = min2(best, D(i - 1, j - 1) + (tokens_meet(x, y) ? 0 : 2));
			/* a '*' takes the other side's token and stays (a flat one takes no '.') */
			if (star_x && y && !star_y)
				best = min2(best, D(i, j - 1) +
						  ((a_flags & GLOB_FLAT) && !takes_other_than_dot(y) ? 2 : 1));
			if (star_y && x && !star_x)
				best = min2(best, D(i - 1, j) + 1);
			/* two neighbours swapped ("rnu" for "run") are one edit, as
			 * Damerau has it: the commonest slip of typing */
			if (i >= 2 && j >= 2 && x && y && !star_x && !star_y &&
			    !is_star(&ta[i - 2]) && !is_star(&tb[j - 2]) &&
			    tokens_meet(x, &tb[j - 2]) && tokens_meet(&ta[i - 2], y))
				best = min2(best, D(i - 2, j - 2) + 2);
			D(i, j) = best;
		}
	}
	size_t distance = D(na, nb);
#undef D
	free(d);
	free(ta);
	free(tb);
	return distance;
}

size_t glob_closest(const char *const *pool, const unsigned *flags, size_t n, const char *glob,
		    size_t *best, size_t max)
{
	size_t far = strlen(glob) + 1, shown = 0;
	size_t *distance = xcalloc(n ? n : 1, sizeof(*distance));
	for (size_t i = 0; i < n; i++)
		distance[i] = glob_distance(pool[i], flags ? flags[i] : 0, glob);
	for (; shown < max; shown++) {
		size_t b = n;
		for (size_t i = 0; i < n; i++)
			if (distance[i] < far && (b == n || distance[i] < distance[b]))
				b = i;
		if (b == n)
			break;
		best[shown] = b;
		/* each name once */
		for (size_t i = 0; i < n; i++)
			if (!strcmp(pool[i], pool[b]))
				distance[i] = far;
	}
	free(distance);
	return shown;
}

size_t glob_suggest(struct strbuf *sb, const char *const *pool, size_t n, const char *typed,
		    size_t max)
{
	size_t *best = xcalloc(max ? max : 1, sizeof(*best));
	size_t found = glob_closest(pool, NULL, n, typed, best, max);
	for (size_t i = 0; i < found; i++)
		strbuf_addf(sb, "%s'%s'", i == 0 ? "" : i + 1 == found ? " or " : ", ", pool[best[i]]);
	free(best);
	return found;
}
