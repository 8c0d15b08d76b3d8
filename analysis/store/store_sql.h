/* store_sql.h - the open database and the SQL helpers every store_*.c
 * file uses (store_sql.c); not for other callers (store_internal.h
 * includes it). */
#ifndef OOMLAB_STORE_SQL_H
#define OOMLAB_STORE_SQL_H

#include <sqlite3.h>

#include "common/util.h"

struct store {
	sqlite3 *db;
	char *path;
};

/* Appends "WHAT: <SQLite's message>" to ERR (may be NULL); returns STORE_EDB. */
int store_fail(struct store *s, struct strbuf *err, const char *what);
int store_exec(struct store *s, const char *sql, struct strbuf *err);
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct strbuf *err);
/* The one way the store runs a prepared statement: steps ST once and gives
 * STORE_ROW with a row to read, 0 once it has run to its end, or STORE_EDB
 * with "PATH: WHAT: <SQLite's message>" in ERR (may be NULL). Over the rows:
 *	while ((rc = store_step(s, st, "reading the groups", err)) == STORE_ROW)
 *		...;
 * leaves RC 0 or STORE_EDB. ST stays the caller's to reset or finalize. */
#define STORE_ROW 1
int store_step(struct store *s, sqlite3_stmt *st, const char *what, struct strbuf *err);
/* Column COL as a malloc'd string, NULL for SQL NULL. */
char *store_column_str(sqlite3_stmt *st, int col);
/* Binds S, or NULL when S is NULL. */
int store_bind_str(sqlite3_stmt *st, int idx, const char *s);

#endif
