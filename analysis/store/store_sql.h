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
/* Column COL as a malloc'd string, NULL for SQL NULL. */
char *store_column_str(sqlite3_stmt *st, int col);
/* Binds S, or NULL when S is NULL. */
int store_bind_str(sqlite3_stmt *st, int idx, const char *s);

#endif
