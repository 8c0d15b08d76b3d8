/* Slurm's client programs (slurm.h). */
#include "slurm.h"

#include <stdlib.h>
#include <string.h>

#include "common/run-command.h"

int slurm_submit(const char *script, const char *const *extra, char **id, struct strbuf *err)
{
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "sbatch");
	strlist_push(&argv, "--parsable");
	for (size_t i = 0; extra && extra[i]; i++)
		strlist_push(&argv, extra[i]);
	strlist_push(&argv, script);
	struct strbuf out = STRBUF_INIT;
	int rc = capture_command_or_say(strlist_argv(&argv), &out, err);
	strlist_clear(&argv);
	if (rc < 0)
		return -1;
	/* --parsable: "ID" or "ID;CLUSTER", after any warnings sbatch printed */
	const char *text = strbuf_trimmed(&out);
	const char *last = strrchr(text, '\n');
	last = last ? last + 1 : text;
	size_t len = strcspn(last, ";");
	if (!len || strspn(last, "0123456789") != len) {
		strbuf_addf(err, "sbatch %s answered '%s', not a job id", script, strbuf_first_line(&out));
		strbuf_release(&out);
		return -1;
	}
	*id = xstrndup(last, len);
	strbuf_release(&out);
	return 0;
}

/* Splits LINE, "ID|STATE|X|NODE", at '|' into F (copies): 0, or -1 (F freed)
 * when it has not four fields or lacks the id or the state. */
static int split_fields(const char *line, char *f[4])
{
	size_t n = 0;
	while (n < 4) {
		size_t len = strcspn(line, "|");
		f[n++] = xstrndup(line, len);
		if (line[len] != '|')
			break;
		line += len + 1;
	}
	if (n == 4 && *f[0] && *f[1])
		return 0;
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	return -1;
}

static char *or_null(char *s)
{
	if (s && (!*s || !strcmp(s, "None") || !strcmp(s, "(null)"))) {
		free(s);
		return NULL;
	}
	return s;
}

int slurm_parse_squeue_line(const char *line, struct slurm_job_state *out)
{
	char *f[4];
	memset(out, 0, sizeof(*out));
	if (split_fields(line, f) < 0)
		return -1;
	*out = (struct slurm_job_state){ .id = f[0], .state = f[1], .reason = or_null(f[2]),
					 .node = or_null(f[3]), .exit_code = -1 };
	return 0;
}

int slurm_parse_sacct_line(const char *line, struct slurm_job_state *out)
{
	char *f[4];
	memset(out, 0, sizeof(*out));
	if (split_fields(line, f) < 0)
		return -1;
	/* "CANCELLED by 0": the state is the first word */
	f[1][strcspn(f[1], " ")] = '\0';
	char *end;
	long code = strtol(f[2], &end, 10);
	*out = (struct slurm_job_state){ .id = f[0], .state = f[1],
					 .node = or_null(f[3]),
					 .exit_code = end != f[2] && *end == ':' ? (int)code : -1 };
	free(f[2]);
	return 0;
}

bool slurm_state_live(const char *state)
{
	static const char *const live[] = { "PENDING", "RUNNING", "CONFIGURING", "COMPLETING",
					    "REQUEUED", "RESIZING", "SUSPENDED", "STOPPED",
					    "SIGNALING", "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED",
					    "SPECIAL_EXIT", NULL };
	for (const char *const *s = live; *s; s++)
		if (!strcmp(state, *s))
			return true;
	return false;
}

/* Whether JOB ("123" or "123_4") belongs to one of IDS. */
static bool of_ids(const char *job, const struct strlist *ids)
{
	size_t len = strcspn(job, "_");
	for (size_t i = 0; i < ids->n; i++)
		if (strlen(ids->items[i]) == len && !strncmp(job, ids->items[i], len))
			return true;
	return false;
}

static void add_state(struct slurm_states *s, struct slurm_job_state *st)
{
	ALLOC_GROW(s->jobs, s->n + 1, s->alloc);
	s->jobs[s->n++] = *st;
}

static void free_state(struct slurm_job_state *st)
{
	free(st->id);
	free(st->state);
	free(st->reason);
	free(st->node);
}

int slurm_states_load(const struct strlist *ids, struct slurm_states *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	/* squeue for the user's own jobs: asked for by id it fails outright once one
	 * of them has left its memory */
	const char *squeue[] = { "squeue", "--noheader", "--array", "--me", "--format=%i|%T|%r|%N",
				 NULL };
	struct strlist lines = STRLIST_INIT;
	if (capture_lines_or_say(squeue, &lines, err) < 0)
		return -1;
	/* up to the first empty line, as ever */
	for (size_t i = 0; i < lines.n && *lines.items[i]; i++) {
		struct slurm_job_state st;
		if (slurm_parse_squeue_line(lines.items[i], &st) < 0)
			continue;
		if (of_ids(st.id, ids))
			add_state(out, &st);
		else
			free_state(&st);
	}
	strlist_clear(&lines);
	if (!ids->n)
		return 0;
	/* sacct for what ended; a cluster without accounting refuses, which is no error */
	struct strbuf list = STRBUF_INIT;
	for (size_t i = 0; i < ids->n; i++)
		strbuf_addf(&list, "%s%s", i ? "," : "", ids->items[i]);
	char *jobs = xasprintf("--jobs=%s", list.buf);
	const char *sacct[] = { "sacct", "--noheader", "--parsable2", "--allocations", jobs,
				"--format=JobID,State,ExitCode,NodeList", NULL };
	if (have_program("sacct") && capture_lines(sacct, NULL, &lines) == 0) {
		out->have_sacct = true;
		for (size_t i = 0; i < lines.n && *lines.items[i]; i++) {
			struct slurm_job_state st;
			if (slurm_parse_sacct_line(lines.items[i], &st) < 0)
				continue;
			/* squeue's word on a job still queued wins over the accounting's */
			if (of_ids(st.id, ids) && !slurm_state_find(out, st.id))
				add_state(out, &st);
			else
				free_state(&st);
		}
	}
	free(jobs);
	strbuf_release(&list);
	strlist_clear(&lines);
	return 0;
}

const struct slurm_job_state *slurm_state_find(const struct slurm_states *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->jobs[i].id, id))
			return &s->jobs[i];
	return NULL;
}

void slurm_states_clear(struct slurm_states *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_state(&s->jobs[i]);
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}

int slurm_cancel(const char *id, struct strbuf *err)
{
	const char *argv[] = { "scancel", id, NULL };
	struct strbuf out = STRBUF_INIT;
	if (capture_command_or_say(argv, &out, err) < 0)
		return -1;
	strbuf_release(&out);
	return 0;
}
