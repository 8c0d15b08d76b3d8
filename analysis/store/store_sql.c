/* store_sql.c - the SQL helpers of the store's files (store_sql.h). */
#include <string.h>

#include "store_errors.h"
#include "store_sql.h"

int store_fail(struct store *s, struct strbuf *err, const char *what)
{
	if (err)
		strbuf_addf(err, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
	return STORE_EDB;
}

int store_exec(struct store *s, const char *sql, struct strbuf *err)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	if (err) {
		/* The first line of the statement says which one failed. */
		int len = (int)strcspn(sql, "\n(");
		strbuf_addf(err, "%s: %.*s: %s", s->path, len, sql, msg ? msg : "failed");
	}
	sqlite3_free(msg);
	return STORE_EDB;
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct strbuf *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	if (err)
		strbuf_addf(err, "%s: cannot prepare \"%.40s...\": %s", s->path, sql,
			    sqlite3_errmsg(s->db));
	return STORE_EDB;
}

int store_step(struct store *s, sqlite3_stmt *st, const char *what, struct strbuf *err)
{
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		return STORE_ROW;
	case SQLITE_DONE:
		return 0;
	default:
		return store_fail(s, err, what);
	}
}

char *store_column_str(sqlite3_stmt *st, int col)
{
	const unsigned char *text = sqlite3_column_text(st, col);
	return text ? xstrdup((const char *)text) : NULL;
}

int store_bind_str(sqlite3_stmt *st, int idx, const char *s)
{
	return s ? sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, idx);
}
