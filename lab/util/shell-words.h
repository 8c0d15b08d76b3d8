/*
 * A shell command line split as /bin/sh would split it, far enough to see
 * which programs it runs with which arguments: the simple commands (between
 * ; & && | || ( ) and newlines), each one's words after quote removal and
 * the expansions the host can know. Redirections and their targets are
 * dropped; NAME=value words before a command are assignments, which later
 * words of the line see.
 *
 * A word is "known" when the host can tell what the guest's shell makes of
 * it: no command substitution, arithmetic, special parameter ($1, $?), glob
 * (* ?), or variable the lookup does not know. Constructs the splitting does
 * not follow (a here-document, a function definition) end it: the rest of
 * the line is left unsplit and rest_unsplit says which one.
 */
#ifndef LAB_SHELL_WORDS_H
#define LAB_SHELL_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util.h"

struct shell_word {
	char *text;     /* as the guest's shell would pass it (when known) */
	bool known;
};

struct shell_command {
	struct shell_word *words;   /* the assignments before it are not among them */
	size_t n;
	size_t assignments;         /* NAME=value words it started with */
};

struct shell_line {
	struct shell_command *commands;
	size_t n;
	const char *rest_unsplit;   /* NULL, or why splitting stopped ("a here-document") */
};

/* A variable the line does not assign itself: 1 and its value (NULL: unset)
 * when the host knows it, 0 when only the guest does. */
typedef int (*shell_lookup)(void *ctx, const char *name, const char **value);

/* 0, or -1 with a one-line reason (an unterminated quote) in ERR. */
int shell_line_split(const char *text, shell_lookup lookup, void *ctx, struct shell_line *out,
		     struct strbuf *err);
void shell_line_clear(struct shell_line *line);

/* The shell's words after which a command follows, not its name: `!`, the
 * reserved words that open a body (if, then, while, do, {...) and the
 * builtin exec. `time` is none of them here: busybox's ash has no time
 * keyword, and its applet is a program that runs one (workload-line.h). */
extern const char *const shell_words_before_command[];

/* C's words from the K-th on, up to the first the host cannot know: a
 * NULL-terminated array of pointers into C (free() the array alone), and
 * in *N (unless NULL) how many. How every check reads a command's argv. */
const char **shell_command_known_words(const struct shell_command *c, size_t k, size_t *n);

#endif
