/* Shell command lines split as /bin/sh would (shell-words.h). */
#include "shell-words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const shell_words_before_command[] = { "!", "if", "then", "else", "elif", "while",
						     "until", "do", "{", "exec", NULL };

/* The variables the line assigns itself (NAME=value); value NULL: only the guest knows it. */
struct line_vars {
	struct strlist names;
	char **values;
	size_t alloc_values;
};

struct splitter {
	const char *p;
	shell_lookup lookup;
	void *ctx;
	struct line_vars vars;
	struct shell_line *line;
	struct shell_command cmd;
	size_t alloc_words;               /* cmd.words' capacity */
	size_t alloc_commands;            /* line->commands' capacity */
	struct strbuf word;
	bool in_word, known, drop_next;   /* drop_next: the word is a redirection's target */
	bool assignment;                  /* the word being read started NAME= */
	struct strbuf *err;
};

static bool name_char(char c, bool first)
{
	return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool operator_char(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '\n';
}

static void set_var(struct line_vars *v, const char *name, const char *value)
{
	for (size_t i = 0; i < v->names.n; i++)
		if (!strcmp(v->names.items[i], name)) {
			free(v->values[i]);
			v->values[i] = value ? xstrdup(value) : NULL;
			return;
		}
	strlist_push(&v->names, name);
	ALLOC_GROW(v->values, v->names.n, v->alloc_values);
	v->values[v->names.n - 1] = value ? xstrdup(value) : NULL;
}

/* 1 and the value (NULL: unset) when the host knows NAME, else 0. */
static int get_var(struct splitter *s, const char *name, const char **value)
{
	for (size_t i = 0; i < s->vars.names.n; i++)
		if (!strcmp(s->vars.names.items[i], name)) {
			*value = s->vars.values[i];
			return *value != NULL;
		}
	*value = NULL;
	return s->lookup ? s->lookup(s->ctx, name, value) : 0;
}

static void start_word(struct splitter *s)
{
	if (s->in_word)
		return;
	s->in_word = true;
	s->known = true;
	strbuf_reset(&s->word);
}

static void end_word(struct splitter *s)
{
	if (!s->in_word)
		return;
	s->in_word = false;
	if (s->drop_next) {
		s->drop_next = false;
		return;
	}
	struct shell_command *c = &s->cmd;
	const char *text = strbuf_str(&s->word);
	if (s->assignment && c->n == 0) {
		size_t len = strcspn(text, "=");
		char *name = xstrndup(text, len);
		set_var(&s->vars, name, s->known ? text + len + 1 : NULL);
		free(name);
		c->assignments++;
		s->assignment = false;
		return;
	}
	s->assignment = false;
	ALLOC_GROW(c->words, c->n + 1, s->alloc_words);
	c->words[c->n].text = xstrdup(text);
	c->words[c->n].known = s->known;
	c->n++;
}

static void end_command(struct splitter *s)
{
	end_word(s);
	s->drop_next = false;
	if (!s->cmd.n && !s->cmd.assignments)
		return;
	struct shell_line *l = s->line;
	ALLOC_GROW(l->commands, l->n + 1, s->alloc_commands);
	l->commands[l->n++] = s->cmd;
	memset(&s->cmd, 0, sizeof(s->cmd));
	s->alloc_words = 0;
}

/* Skips what ends at CLOSE (nesting OPEN, quotes inside); false at the end of the text. */
static bool skip_nested(struct splitter *s, char open, char close)
{
	int depth = 1;
	while (*s->p) {
		char c = *s->p++;
		if (c == '\\' && *s->p)
			s->p++;
		else if (c == '\'') {
			const char *q = strchr(s->p, '\'');
			if (!q)
				return false;
			s->p = q + 1;
		} else if (c == open && open != close)
			depth++;
		else if (c == close && --depth == 0)
			return true;
	}
	return false;
}

/* An unquoted expansion's value is split into words at blanks and newlines. */
static void add_expanded(struct splitter *s, const char *value, bool quoted)
{
	for (const char *v = value ? value : ""; *v; v++) {
		if (!quoted && (blank(*v) || *v == '\n')) {
			end_word(s);
			continue;
		}
		start_word(s);
		strbuf_add(&s->word, v, 1);
	}
}

/* After a '$': a parameter, a command substitution or arithmetic. */
static int expansion(struct splitter *s, bool quoted)
{
	const char *p = s->p;
	if (*p == '(') {
		s->p = p + 1;
		start_word(s);
		s->known = false;
		if (!skip_nested(s, '(', ')')) {
			strbuf_addstr(s->err, "a $( without its )");
			return -1;
		}
		return 0;
	}
	char name[128];
	size_t len = 0;
	bool braced = *p == '{';
	if (braced)
		p++;
	if (name_char(*p, true)) {
		while (name_char(p[len], len == 0) && len < sizeof(name) - 1)
			len++;
	} else if (strchr("0123456789?$!#@*-", *p) && *p) {
		len = 1;
	} else if (!braced) {
		/* a lone '$' is itself */
		start_word(s);
		strbuf_addstr(&s->word, "$");
		return 0;
	}
	memcpy(name, p, len);
	name[len] = '\0';
	p += len;
	bool plain = len > 0 && name_char(name[0], true);
	if (braced) {
		/* ${NAME:-word} and the like: only the guest knows */
		if (*p != '}')
			plain = false;
		const char *close = strchr(p, '}');
		if (!close) {
			strbuf_addstr(s->err, "a ${ without its }");
			return -1;
		}
		p = close + 1;
	}
	s->p = p;
	const char *value = NULL;
	if (plain && get_var(s, name, &value)) {
		add_expanded(s, value, quoted);
		if (quoted)
			start_word(s);
		return 0;
	}
	start_word(s);
	s->known = false;
	return 0;
}

static int double_quoted(struct splitter *s)
{
	start_word(s);
	while (*s->p && *s->p != '"') {
		char c = *s->p++;
		if (c == '\\' && *s->p && strchr("$`\"\\\n", *s->p)) {
			if (*s->p != '\n')
				strbuf_add(&s->word, s->p, 1);
			s->p++;
		} else if (c == '$') {
			if (expansion(s, true) < 0)
				return -1;
		} else if (c == '`') {
			s->known = false;
			if (!skip_nested(s, '`', '`')) {
				strbuf_addstr(s->err, "a ` without its closing `");
				return -1;
			}
		} else {
			strbuf_add(&s->word, &c, 1);
		}
	}
	if (*s->p != '"') {
		strbuf_addstr(s->err, "a \" quote that is not closed");
		return -1;
	}
	s->p++;
	return 0;
}

/* A redirection at s->p (after its file descriptor's digits, if any): its
 * target, the next word, is dropped. */
static bool redirection(struct splitter *s)
{
	const char *p = s->p;
	if (isdigit((unsigned char)*p)) {
		if (s->in_word)
			return false;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p != '<' && *p != '>')
			return false;
	}
	end_word(s);
	if (p[0] == '<' && p[1] == '<') {
		end_command(s);
		s->line->rest_unsplit = "a here-document";
		return true;
	}
	p++;
	if (*p == '>' || *p == '&' || *p == '|')
		p++;
	s->p = p;
	s->drop_next = true;
	return true;
}

static void operator(struct splitter *s)
{
	char c = *s->p++;
	if (c == '(' && s->cmd.n && !s->in_word) {
		/* NAME() { ...: a function definition */
		const char *q = s->p;
		while (blank(*q))
			q++;
		if (*q == ')') {
			s->line->rest_unsplit = "a function definition";
			return;
		}
	}
	if ((c == '&' || c == '|' || c == ';') && *s->p == c)
		s->p++;
	end_command(s);
}

int shell_line_split(const char *text, shell_lookup lookup, void *ctx, struct shell_line *out,
		     struct strbuf *err)
{
	struct splitter s = { .p = text, .lookup = lookup, .ctx = ctx, .line = out, .err = err };
	int rc = 0;
	memset(out, 0, sizeof(*out));
	while (*s.p && rc == 0 && !out->rest_unsplit) {
		char c = *s.p;
		if (blank(c)) {
			end_word(&s);
			s.p++;
		} else if (c == '#' && !s.in_word) {
			s.p += strcspn(s.p, "\n");
		} else if ((c == '<' || c == '>' || isdigit((unsigned char)c)) && redirection(&s)) {
			continue;
		} else if (operator_char(c)) {
			end_word(&s);
			operator(&s);
		} else if (c == '\\') {
			s.p++;
			if (*s.p == '\n') {
				s.p++;
				continue;
			}
			start_word(&s);
			if (*s.p)
				strbuf_add(&s.word, s.p++, 1);
		} else if (c == '\'') {
			const char *close = strchr(s.p + 1, '\'');
			if (!close) {
				strbuf_addstr(err, "a ' quote that is not closed");
				rc = -1;
				break;
			}
			start_word(&s);
			strbuf_add(&s.word, s.p + 1, (size_t)(close - s.p - 1));
			s.p = close + 1;
		} else if (c == '"') {
			s.p++;
			rc = double_quoted(&s);
		} else if (c == '$') {
			s.p++;
			rc = expansion(&s, false);
		} else if (c == '`') {
			s.p++;
			start_word(&s);
			s.known = false;
			if (!skip_nested(&s, '`', '`')) {
				strbuf_addstr(err, "a ` without its closing `");
				rc = -1;
			}
		} else {
			if (!s.in_word) {
				/* NAME= at the start of a word, before any quote or expansion */
				const char *q = s.p;
				while (name_char(*q, q == s.p))
					q++;
				s.assignment = q > s.p && *q == '=';
			}
			start_word(&s);
			if (c == '*' || c == '?')
				s.known = false;
			if (c == '~' && s.word.len == 0 && (s.p[1] == '/' || !s.p[1] || blank(s.p[1]))) {
				const char *home = NULL;
				if (get_var(&s, "HOME", &home) && home)
					strbuf_addstr(&s.word, home);
				else
					s.known = false;
			} else {
				strbuf_add(&s.word, &c, 1);
			}
			s.p++;
		}
	}
	if (rc == 0)
		end_command(&s);
	else
		shell_line_clear(out);
	for (size_t i = 0; i < s.vars.names.n; i++)
		free(s.vars.values[i]);
	free(s.vars.values);
	strlist_clear(&s.vars.names);
	for (size_t i = 0; i < s.cmd.n; i++)
		free(s.cmd.words[i].text);
	free(s.cmd.words);
	strbuf_release(&s.word);
	return rc;
}

void shell_line_clear(struct shell_line *line)
{
	for (size_t i = 0; i < line->n; i++) {
		for (size_t k = 0; k < line->commands[i].n; k++)
			free(line->commands[i].words[k].text);
		free(line->commands[i].words);
	}
	free(line->commands);
	memset(line, 0, sizeof(*line));
}

const char **shell_command_known_words(const struct shell_command *c, size_t k, size_t *n)
{
	size_t from = k < c->n ? k : c->n, count = 0;
	const char **argv = xcalloc(c->n - from + 1, sizeof(*argv));
	for (; from + count < c->n && c->words[from + count].known; count++)
		argv[count] = c->words[from + count].text;
	if (n)
		*n = count;
	return argv;
}
