/* A run on Slurm: its folder, its submissions, its progress (slurm-run.h). */
#include "slurm-run.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/json-file.h"
#include "common/paths.h"
#include "common/run-command.h"
#include "common/run-folder.h"
#include "common/trial-record.h"
#include "lab/run/run-look.h"
#include "lab/run/run-plan.h"
#include "lab/run/run-id.h"
#include "lab/run/run-merge.h"
#include "slurm-script.h"
#include "slurm.h"
#include "lab/machine/vm.h"

char *slurm_dir_for(const char *run_dir)
{
	size_t len = strlen(run_dir);
	while (len > 1 && run_dir[len - 1] == '/')
		len--;
	return xasprintf("%.*s.slurm", (int)len, run_dir);
}

static void script_spec(const struct slurm_run *r, struct slurm_script_spec *spec)
{
	*spec = (struct slurm_script_spec){ .lab = r->lab, .run_id = r->run_id, .run_dir = r->run_dir,
					    .slurm_dir = r->slurm_dir, .cache = r->cache,
					    .results = r->results, .sbatch = &r->sbatch,
					    .shards = r->shards, .jobs = r->jobs };
}

static char *in_slurm_dir(const struct slurm_run *r, const char *name)
{
	return xasprintf("%s/%s", r->slurm_dir, name);
}

static int save_meta(struct slurm_run *r, struct strbuf *err)
{
	char *path = in_slurm_dir(r, SLURM_JSON);
	int rc = json_file_write(path, r->meta, err);
	free(path);
	return rc;
}

int slurm_run_write(struct slurm_run *r, struct strbuf *err)
{
	const char *dirs[] = { "logs", "status", NULL };
	for (const char *const *d = dirs; *d; d++) {
		char *path = in_slurm_dir(r, *d);
		int rc = mkdir_p(path, 0755);
		if (rc < 0)
			strbuf_addf(err, "cannot create %s: %s", path, strerror(errno));
		free(path);
		if (rc < 0)
			return -1;
	}
	struct slurm_script_spec spec;
	script_spec(r, &spec);
	for (int s = SLURM_SCRIPT_BUILD; s <= SLURM_SCRIPT_MERGE; s++) {
		if (s == SLURM_SCRIPT_DECIDE && !r->max_trials)
			continue;
		char *path = in_slurm_dir(r, slurm_script_name(s));
		char *text = slurm_script_text(&spec, s);
		int rc = write_script(path, text, err);
		free(text);
		free(path);
		if (rc < 0)
			return -1;
	}
	json_t *sbatch = json_array();
	for (size_t i = 0; i < r->sbatch.n; i++)
		json_array_append_new(sbatch, json_string(r->sbatch.items[i]));
	/* each shard's trials, for the count when a shard's run.json is unreadable */
	json_t *shard_trials = json_array();
	for (unsigned k = 1; k <= r->shards; k++) {
		size_t finished, total;
		slurm_shard_trials(r, k, 0, &finished, &total);
		json_array_append_new(shard_trials, json_integer((json_int_t)total));
	}
	r->meta = json_pack("{s:s, s:s, s:i, s:o, s:s, s:s, s:s, s:s, s:i, s:o, s:[]}", "run_id",
			    r->run_id, "run_dir", r->run_dir, "shards", (int)r->shards, "shard_trials",
			    shard_trials, "cache", r->cache, "lab", r->lab, "results", r->results,
			    "clock", r->clock, "jobs", (int)r->jobs, "sbatch", sbatch, "submissions");
	if (r->max_trials)
		json_object_set_new(r->meta, "sequential",
				    json_pack("{s:i, s:i, s:[]}", "first_look", (int)r->first_look,
					      "max_trials", (int)r->max_trials, "looks"));
	return save_meta(r, err);
}

static char *shard_dir(const struct slurm_run *r, unsigned k)
{
	return xasprintf("%s/shard-%u", r->slurm_dir, k);
}

int slurm_shard_trials(const struct slurm_run *r, unsigned k, unsigned rounds, size_t *finished,
		       size_t *total)
{
	char *dir = shard_dir(r, k);
	struct strbuf why = STRBUF_INIT;
	json_t *run = run_folder_load(dir, &why);
	strbuf_release(&why);
	*finished = 0;
	*total = (size_t)json_integer_value(json_array_get(json_object_get(r->meta, "shard_trials"),
							   k - 1));
	if (!run) {
		free(dir);
		return -1;
	}
	*total = 0;
	size_t i;
	json_t *slot;
	json_array_foreach(json_object_get(run, "order"), i, slot) {
		/* a slot's index is its round */
		if (rounds && json_integer_value(json_object_get(slot, "index")) >= (json_int_t)rounds)
			continue;
		char *trial = xasprintf("%s/%s/%03d", dir,
					json_string_value(json_object_get(slot, "label")),
					(int)json_integer_value(json_object_get(slot, "index")));
		/* as lab run --resume counts: a QEMU killed from outside is booted again */
		char *outcome = trial_record_outcome(trial);
		*finished += outcome && strcmp(outcome, vm_outcome_name(VM_HOST_KILLED));
		(*total)++;
		free(outcome);
		free(trial);
	}
	json_decref(run);
	free(dir);
	return 0;
}

static json_t *last_submission(const struct slurm_run *r)
{
	json_t *subs = json_object_get(r->meta, "submissions");
	size_t n = json_array_size(subs);
	return n ? json_array_get(subs, n - 1) : NULL;
}

static const char *job_of(json_t *sub, const char *which)
{
	return json_string_value(json_object_get(sub, which));
}

/* sbatch SCRIPT with OPTS (NULL entries are left out); its job id, or NULL after an error in ERR. */
static char *submit(const struct slurm_run *r, enum slurm_script which, const char *const *opts,
		    size_t n_opts, struct strbuf *err)
{
	const char *extra[8];
	size_t n = 0;
	for (size_t i = 0; i < n_opts && n < 7; i++)
		if (opts[i])
			extra[n++] = opts[i];
	extra[n] = NULL;
	char *script = in_slurm_dir(r, slurm_script_name(which));
	char *id = NULL;
	if (slurm_submit(script, extra, &id, err) < 0)
		id = NULL;
	free(script);
	return id;
}

int slurm_run_submit(struct slurm_run *r, unsigned rounds, bool build_first, struct strbuf *err)
{
	struct strbuf tasks = STRBUF_INIT;
	json_t *task_list = json_array();
	for (unsigned k = 1; k <= r->shards; k++) {
		size_t finished, total;
		if (slurm_shard_trials(r, k, rounds, &finished, &total) < 0) {
			char *dir = shard_dir(r, k);
			strbuf_addf(err, "%s: not a shard run folder (no readable run.json)", dir);
			free(dir);
			json_decref(task_list);
			strbuf_release(&tasks);
			return -1;
		}
		if (finished < total) {
			strbuf_addf(&tasks, "%s%u", tasks.len ? "," : "", k);
			json_array_append_new(task_list, json_integer(k));
		}
	}
	char *build = NULL, *shards = NULL, *next = NULL;
	int rc = 0;
	/* the round the shards run to, for the array and the decision after it */
	char *export = rounds ? xasprintf("--export=ALL,OOMLAB_SLURM_ROUNDS=%u", rounds) : NULL;
	if (tasks.len && build_first) {
		build = submit(r, SLURM_SCRIPT_BUILD, NULL, 0, err);
		rc = build ? 0 : -1;
	}
	if (rc == 0 && tasks.len) {
		char *array = xasprintf("--array=%s", tasks.buf);
		char *after = build ? xasprintf("--dependency=afterok:%s", build) : NULL;
		const char *opts[] = { array, after, export };
		shards = submit(r, SLURM_SCRIPT_SHARDS, opts, 3, err);
		rc = shards ? 0 : -1;
		free(array);
		free(after);
	}
	/* then the look after this round, or the merge */
	bool deciding = r->max_trials > 0;
	if (rc == 0) {
		char *after = shards ? xasprintf("--dependency=afterok:%s", shards) : NULL;
		const char *opts[] = { after, export };
		next = submit(r, deciding ? SLURM_SCRIPT_DECIDE : SLURM_SCRIPT_MERGE, opts, 2, err);
		rc = next ? 0 : -1;
		free(after);
	}
	/* what was submitted is recorded even when a later sbatch failed */
	json_t *sub = json_pack("{s:I, s:o, s:o, s:o, s:o}", "submitted_unix", (json_int_t)time(NULL),
				"build", build ? json_string(build) : json_null(), "shards",
				shards ? json_string(shards) : json_null(), "tasks", task_list,
				deciding ? "decide" : "merge", next ? json_string(next) : json_null());
	if (rounds)
		json_object_set_new(sub, "rounds", json_integer(rounds));
	json_array_append_new(json_object_get(r->meta, "submissions"), sub);
	struct strbuf save_err = STRBUF_INIT;
	if (save_meta(r, &save_err) < 0 && rc == 0) {
		strbuf_addstr(err, save_err.buf);
		rc = -1;
	}
	strbuf_release(&save_err);
	if (rc == 0) {
		struct strbuf round = STRBUF_INIT;
		if (rounds)
			strbuf_addf(&round, ", the first %u rounds", rounds);
		if (shards)
			note("slurm: submitted %s%s%sshards %s (array tasks %s of %u%s%s), %s job %s "
			     "(after the shards)", build ? "build job " : "", build ? build : "",
			     build ? ", " : "", shards, tasks.buf, r->shards, strbuf_str(&round),
			     build ? ", after the build" : "", deciding ? "decision" : "merge", next);
		else
			note("slurm: every shard has its trials%s: submitted %s job %s",
			     strbuf_str(&round), deciding ? "decision" : "merge", next);
		strbuf_release(&round);
	}
	free(build);
	free(shards);
	free(next);
	free(export);
	strbuf_release(&tasks);
	return rc;
}

/* The last submission's round (0: a fixed design's whole run). */
static unsigned last_rounds(const struct slurm_run *r)
{
	return (unsigned)json_integer_value(json_object_get(last_submission(r), "rounds"));
}

int slurm_run_decide(struct slurm_run *r, struct strbuf *err)
{
	unsigned round = last_rounds(r);
	if (!r->max_trials || !round) {
		strbuf_addf(err, "%s is no sequential run: nothing to decide", r->run_dir);
		return -1;
	}
	/* the shards so far, merged into a folder of links, judged as lab run judges */
	char *look_dir = xasprintf("%s/look-%u", r->slurm_dir, round);
	struct strlist shards = STRLIST_INIT;
	for (unsigned k = 1; k <= r->shards; k++)
		strlist_push_owned(&shards, shard_dir(r, k));
	remove_tree(look_dir);
	size_t decided = 0, rows = 0;
	int rc = r->shards > 1 ? run_merge(&shards, look_dir, err) : 0;
	int judged = rc < 0 ? -1 : run_look(r->shards > 1 ? look_dir : shards.items[0], &decided, &rows, err);
	remove_tree(look_dir);
	free(look_dir);
	strlist_clear(&shards);
	if (judged < 0)
		return -1;
	bool stop = judged == 1 || round >= r->max_trials;
	json_array_append_new(json_object_get(json_object_get(r->meta, "sequential"), "looks"),
			      json_pack("{s:i, s:I, s:I, s:s}", "round", (int)round, "decided",
					(json_int_t)decided, "rows", (json_int_t)rows, "then",
					judged == 1 ? "stop: decided" : stop ? "stop: max_trials"
									   : "next round"));
	note("slurm: round %u: %zu of %zu rows decided: %s", round, decided, rows,
	     judged == 1 ? "the run stops here" : stop ? "max_trials reached, the run stops"
						       : "one more round");
	if (!stop)
		return slurm_run_submit(r, round + 1, false, err);
	/* the merge of what the rounds ran: a plain submission after nothing */
	char *merge = submit(r, SLURM_SCRIPT_MERGE, NULL, 0, err);
	if (!merge)
		return -1;
	json_t *sub = json_pack("{s:I, s:n, s:n, s:[], s:s, s:i}", "submitted_unix", (json_int_t)time(NULL),
				"build", "shards", "tasks", "merge", merge, "rounds", (int)round);
	json_array_append_new(json_object_get(r->meta, "submissions"), sub);
	note("slurm: submitted merge job %s", merge);
	free(merge);
	return save_meta(r, err);
}

static char *meta_str(json_t *meta, const char *key)
{
	const char *s = json_string_value(json_object_get(meta, key));
	return s ? xstrdup(s) : NULL;
}

static int load_from(const char *slurm_dir, struct slurm_run *r, struct strbuf *err)
{
	char *path = xasprintf("%s/" SLURM_JSON, slurm_dir);
	json_t *meta = json_file_load_object(path, err);
	memset(r, 0, sizeof(*r));
	if (!meta) {
		free(path);
		return -1;
	}
	r->meta = meta;
	r->run_id = meta_str(meta, "run_id");
	r->run_dir = meta_str(meta, "run_dir");
	r->cache = meta_str(meta, "cache");
	r->lab = meta_str(meta, "lab");
	r->results = meta_str(meta, "results");
	r->clock = meta_str(meta, "clock");
	r->shards = (unsigned)json_integer_value(json_object_get(meta, "shards"));
	r->jobs = (unsigned)json_integer_value(json_object_get(meta, "jobs"));
	json_t *seq = json_object_get(meta, "sequential");
	r->max_trials = (unsigned)json_integer_value(json_object_get(seq, "max_trials"));
	r->first_look = (unsigned)json_integer_value(json_object_get(seq, "first_look"));
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(meta, "sbatch"), i, o)
		strlist_push(&r->sbatch, json_string_value(o));
	r->slurm_dir = xstrdup(slurm_dir);
	if (!r->run_id || !r->run_dir || !r->shards || !json_is_array(json_object_get(meta, "submissions"))) {
		strbuf_addf(err, "%s lacks the run's settings", path);
		free(path);
		slurm_run_clear(r);
		return -1;
	}
	free(path);
	return 0;
}

int slurm_run_find(const char *run, struct slurm_run *r, struct strbuf *err)
{
	struct strlist candidates = STRLIST_INIT;
	strlist_push_owned(&candidates, xasprintf("%s", run));
	strlist_push_owned(&candidates, slurm_dir_for(run));
	if (!strchr(run, '/')) {
		char *dir = xasprintf("%s/%s", results_root(), run);
		strlist_push_owned(&candidates, slurm_dir_for(dir));
		free(dir);
	}
	int found = 0;
	for (size_t i = 0; i < candidates.n && !found; i++) {
		char *path = xasprintf("%s/" SLURM_JSON, candidates.items[i]);
		if (path_exists(path))
			found = load_from(candidates.items[i], r, err) < 0 ? -1 : 1;
		free(path);
	}
	strlist_clear(&candidates);
	return found;
}

/* Every job id any submission had. */
static void all_job_ids(const struct slurm_run *r, struct strlist *ids)
{
	size_t i;
	json_t *sub;
	json_array_foreach(json_object_get(r->meta, "submissions"), i, sub) {
		const char *keys[] = { "build", "shards", "decide", "merge" };
		for (size_t k = 0; k < 4; k++)
			if (job_of(sub, keys[k]))
				strlist_push(ids, job_of(sub, keys[k]));
	}
}

/* How a job's script said it ended: exit=, node=, cpu= lines in status/ID. */
struct job_status {
	int exit_code;   /* -1: no status written */
	char *node, *cpu;
};

static void read_status(const struct slurm_run *r, const char *id, struct job_status *st)
{
	char *path = xasprintf("%s/status/%s", r->slurm_dir, id);
	char *text = read_file(path, NULL);
	*st = (struct job_status){ .exit_code = -1 };
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (starts_with(line, "exit="))
			st->exit_code = atoi(line + 5);
		else if (starts_with(line, "node=") && line[5])
			st->node = xstrdup(line + 5);
		else if (starts_with(line, "cpu=") && line[4])
			st->cpu = xstrdup(line + 4);
	}
	free(text);
	free(path);
}

static void status_clear(struct job_status *st)
{
	free(st->node);
	free(st->cpu);
}

/* One job's state in words, as Slurm and its script tell it: true when it
 * ended and did not succeed. */
static bool describe_job(const struct slurm_run *r, const struct slurm_states *states, const char *id,
			 struct strbuf *out, struct job_status *st)
{
	const struct slurm_job_state *s = slurm_state_find(states, id);
	read_status(r, id, st);
	const char *node = s && s->node ? s->node : st->node;
	if (s && slurm_state_live(s->state)) {
		strbuf_addstr(out, s->state);
		if (s->reason)
			strbuf_addf(out, " (%s)", s->reason);
		if (node && strcmp(s->state, "PENDING"))
			strbuf_addf(out, " on %s", node);
		return false;
	}
	int code = st->exit_code >= 0 ? st->exit_code : s ? s->exit_code : -1;
	const char *state = s ? s->state : st->exit_code == 0 ? "COMPLETED" : st->exit_code > 0 ? "FAILED"
													 : NULL;
	if (!state) {
		strbuf_addstr(out, "ENDED without a word (Slurm no longer knows it, its script wrote no "
				   "status: killed?)");
		return true;
	}
	strbuf_addstr(out, state);
	if (code > 0)
		strbuf_addf(out, " (exit %d)", code);
	if (node)
		strbuf_addf(out, " on %s", node);
	return strcmp(state, "COMPLETED") != 0 || code > 0;
}

/* The last submission whose array had task K, and its array job id. */
static const char *shard_job(const struct slurm_run *r, unsigned k)
{
	json_t *subs = json_object_get(r->meta, "submissions");
	for (size_t i = json_array_size(subs); i-- > 0;) {
		json_t *sub = json_array_get(subs, i);
		size_t t;
		json_t *task;
		json_array_foreach(json_object_get(sub, "tasks"), t, task)
			if (json_integer_value(task) == (json_int_t)k && job_of(sub, "shards"))
				return job_of(sub, "shards");
	}
	return NULL;
}

/* Describes job ID (of SCRIPT) in LINE and its script's status in ST; when it
 * ended and did not succeed, adds "WHAT: Slurm job ID, LINE, log L" to
 * FAILED and returns its log L (malloc'd), else NULL. */
static char *job_line(const struct slurm_run *r, const struct slurm_states *states,
		      enum slurm_script script, const char *id, const char *what,
		      struct strbuf *line, struct job_status *st, struct strlist *failed)
{
	if (!describe_job(r, states, id, line, st))
		return NULL;
	struct slurm_script_spec spec;
	script_spec(r, &spec);
	char *log = slurm_script_log(&spec, script, id);
	strlist_push_owned(failed, xasprintf("%s: Slurm job %s, %s, log %s", what, id, line->buf, log));
	return log;
}

/* The line of the last submission's job KIND ("build", "decide", "merge"), if it had one. */
static void show_job(const struct slurm_run *r, const struct slurm_states *states, const char *kind,
		     enum slurm_script script, FILE *out, struct strlist *failed)
{
	json_t *sub = last_submission(r);
	const char *id = sub ? job_of(sub, kind) : NULL;
	if (!id)
		return;
	struct strbuf line = STRBUF_INIT;
	struct job_status st;
	char *log = job_line(r, states, script, id, kind, &line, &st, failed);
	fprintf(out, "  %-9s  %-12s %s", kind, id, line.buf);
	if (log)
		fprintf(out, ", log %s", log);
	fputc('\n', out);
	free(log);
	status_clear(&st);
	strbuf_release(&line);
}

/* The shards' lines, each with the last job that ran it and its trials of
 * the first ROUNDS rounds finished (added to *FINISHED of *TOTAL); the CPU
 * models they ran on in CPUS. */
static void show_shards(const struct slurm_run *r, const struct slurm_states *states, unsigned rounds,
			FILE *out, struct strlist *failed, struct strlist *cpus, size_t *finished_all,
			size_t *total_all)
{
	for (unsigned k = 1; k <= r->shards; k++) {
		size_t finished = 0, total = 0;
		bool readable = slurm_shard_trials(r, k, rounds, &finished, &total) == 0;
		*finished_all += finished;
		*total_all += total;
		const char *job = shard_job(r, k);
		struct strbuf line = STRBUF_INIT, what = STRBUF_INIT;
		struct job_status st = { .exit_code = -1 };
		char *id = job ? xasprintf("%s_%u", job, k) : NULL;
		strbuf_addf(&what, "shard %u/%u", k, r->shards);
		char *log = id ? job_line(r, states, SLURM_SCRIPT_SHARDS, id, what.buf, &line, &st, failed)
			       : NULL;
		fprintf(out, "  %s  %-12s %s: %zu/%zu trials finished%s", what.buf, id ? id : "-",
			id ? line.buf : "not submitted (it had its trials)", finished, total,
			readable ? "" : " (its run.json is unreadable)");
		if (log)
			fprintf(out, ", log %s", log);
		fputc('\n', out);
		if (st.cpu && !strlist_has(cpus, st.cpu))
			strlist_push(cpus, st.cpu);
		free(log);
		status_clear(&st);
		strbuf_release(&line);
		strbuf_release(&what);
		free(id);
	}
}

void slurm_run_progress(struct slurm_run *r, FILE *out)
{
	struct strlist ids = STRLIST_INIT, failed = STRLIST_INIT, cpus = STRLIST_INIT;
	all_job_ids(r, &ids);
	struct slurm_states states;
	struct strbuf err = STRBUF_INIT;
	bool asked = slurm_states_load(&ids, &states, &err) == 0;
	json_t *subs = json_object_get(r->meta, "submissions");
	fprintf(out, "Slurm run %s: %u shard%s, clock %s, cache %s, submitted %zu time%s\n", r->run_id,
		r->shards, r->shards == 1 ? "" : "s", r->clock ? r->clock : "?", r->cache,
		json_array_size(subs), json_array_size(subs) == 1 ? "" : "s");
	if (!asked)
		fprintf(out, "  (squeue did not answer: %s; the states below are the scripts' own)\n",
			err.buf);
	unsigned rounds = last_rounds(r);
	if (r->max_trials) {
		fprintf(out, "  sequential: round %u of at most %u", rounds, r->max_trials);
		size_t i;
		json_t *l;
		json_array_foreach(json_object_get(json_object_get(r->meta, "sequential"), "looks"), i, l)
			fprintf(out, "%s after round %d %d of %d rows decided, %s", i ? ";" : "; looks:",
				(int)json_integer_value(json_object_get(l, "round")),
				(int)json_integer_value(json_object_get(l, "decided")),
				(int)json_integer_value(json_object_get(l, "rows")),
				json_string_value(json_object_get(l, "then")));
		fputc('\n', out);
	}
	/* the last submission's jobs in the order they run */
	size_t finished_all = 0, total_all = 0;
	show_job(r, &states, "build", SLURM_SCRIPT_BUILD, out, &failed);
	show_shards(r, &states, rounds, out, &failed, &cpus, &finished_all, &total_all);
	show_job(r, &states, "decide", SLURM_SCRIPT_DECIDE, out, &failed);
	show_job(r, &states, "merge", SLURM_SCRIPT_MERGE, out, &failed);
	if (rounds)
		fprintf(out, "  trials: %zu of %zu finished (of the first %u rounds)\n", finished_all,
			total_all, rounds);
	else
		fprintf(out, "  trials: %zu of %zu finished\n", finished_all, total_all);
	/* under realtime the figures depend on the CPU: say which ran them */
	if (cpus.n == 1)
		fprintf(out, "  the shards ran on one CPU model: %s\n", cpus.items[0]);
	else if (cpus.n > 1) {
		fprintf(out, "  the shards ran on %zu CPU models:", cpus.n);
		for (size_t i = 0; i < cpus.n; i++)
			fprintf(out, "%s %s", i ? ";" : "", cpus.items[i]);
		fputc('\n', out);
		if (r->clock && !strcmp(r->clock, "realtime"))
			warning("slurm: clock realtime on %zu CPU models: the run's timings mix node "
				"types (docs/CLUSTER.md: pin the shards with --sbatch=--constraint=...)",
				cpus.n);
	}
	for (size_t i = 0; i < failed.n; i++)
		error("slurm: failed: %s", failed.items[i]);
	if (failed.n)
		note("slurm: lab run --resume %s submits again the trials that are missing", r->run_dir);
	slurm_states_clear(&states);
	strlist_clear(&ids);
	strlist_clear(&failed);
	strlist_clear(&cpus);
	strbuf_release(&err);
}

int slurm_run_resume(struct slurm_run *r, struct strbuf *err)
{
	if (run_folder_is_run(r->run_dir)) {
		note("slurm: %s is merged already: nothing to resume", r->run_dir);
		return 0;
	}
	struct strlist ids = STRLIST_INIT;
	all_job_ids(r, &ids);
	struct slurm_states states;
	if (slurm_states_load(&ids, &states, err) < 0) {
		strlist_clear(&ids);
		return -1;
	}
	int rc = 0;
	/* a job waiting on one that failed never starts: it goes; any other in the queue stays */
	for (size_t i = 0; i < states.n && rc == 0; i++) {
		const struct slurm_job_state *s = &states.jobs[i];
		if (!slurm_state_live(s->state))
			continue;
		if (s->reason && !strcmp(s->reason, "DependencyNeverSatisfied")) {
			rc = slurm_cancel(s->id, err);
			if (rc == 0)
				note("slurm: cancelled job %s (it waited on a job that failed)", s->id);
		} else {
			strbuf_addf(err, "job %s of the run is %s: lab run --resume once it ended (or "
				    "scancel it)", s->id, s->state);
			rc = -1;
		}
	}
	slurm_states_clear(&states);
	strlist_clear(&ids);
	return rc < 0 ? -1 : slurm_run_submit(r, last_rounds(r), true, err);
}

void slurm_run_clear(struct slurm_run *r)
{
	free(r->run_id);
	free(r->run_dir);
	free(r->slurm_dir);
	free(r->cache);
	free(r->lab);
	free(r->results);
	free(r->clock);
	strlist_clear(&r->sbatch);
	json_decref(r->meta);
	memset(r, 0, sizeof(*r));
}

/* An absolute form of PATH (malloc'd): the jobs run elsewhere. */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		die("run: cannot tell the current folder: %s", strerror(errno));
	return xasprintf("%s/%s", cwd, path);
}

/* lab run --slurm: the shards' run folders made here (the design fixed
 * before any job starts), the scripts beside them, the jobs submitted. */
int slurm_run_submit_plan(struct run_plan *p, const char *out, struct slurm_submit_options *o)
{
	size_t slots = p->n_slots;
	unsigned n = o->shards ? (unsigned)o->shards : run_plan_rounds(&p->exp);
	if (n > slots)
		die_usage("run: --slurm-shards %u: the run has %zu trials, at most one shard each", n, slots);
	struct slurm_run r = { .shards = n, .jobs = (unsigned)o->jobs, .sbatch = STRLIST_INIT };
	/* a sequential run goes in rounds: its first jobs run to the first look */
	if (p->exp.until_decided) {
		r.max_trials = p->exp.max_trials;
		r.first_look = SEQUENTIAL_FIRST_LOOK;
	}
	r.run_id = run_id_new(p->exp.name, time(NULL), 1, 1);
	r.results = absolute(results_root());
	r.run_dir = out ? absolute(out) : xasprintf("%s/%s", r.results, r.run_id);
	r.slurm_dir = slurm_dir_for(r.run_dir);
	r.cache = absolute(o->cache ? o->cache : cache_root());
	r.lab = xstrdup(lab_binary());
	r.clock = xstrdup(guest_clock_name(p->clock.clock));
	const char *paths[][2] = { { "the run folder", r.run_dir }, { "--slurm-cache", r.cache },
				   { "the lab binary", r.lab }, { "the results folder", r.results } };
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (slurm_script_path_ok(paths[i][1]) < 0)
			die_usage("run: --slurm: %s %s has a blank, quote, backslash or '%%', which "
				  "#SBATCH lines cannot carry", paths[i][0], paths[i][1]);
	for (size_t i = 0; i < o->sbatch.n; i++) {
		const char *opt = o->sbatch.items[i];
		if (opt[0] != '-' || strchr(opt, '\n'))
			die_usage("run: --sbatch '%s': one sbatch option a time, as --name=value", opt);
		strlist_push(&r.sbatch, opt);
	}
	if (path_exists(r.run_dir) || path_exists(r.slurm_dir))
		die_usage("run: --out %s: it or %s exists already", r.run_dir, r.slurm_dir);
	if (!have_program("sbatch"))
		die_usage("run: --slurm: no sbatch here (Slurm's client programs: Debian's slurm-client)");
	if (mkdir_p(r.cache, 0755) < 0)
		die("run: --slurm-cache %s: %s", r.cache, strerror(errno));
	run_plan_warn_if_undecidable(p);
	struct strbuf err = STRBUF_INIT;
	/* the shards' folders, as lab run --shard K/N would make them */
	p->shard_n = n;
	p->jobs = o->jobs ? (unsigned)o->jobs : 1;
	for (unsigned k = 1; k <= n; k++) {
		p->shard_k = k;
		p->run_id = xasprintf("%s-shard%u-of-%u", r.run_id, k, n);
		p->dir = xasprintf("%s/shard-%u", r.slurm_dir, k);
		json_t *meta = run_plan_json(p);
		int rc = run_folder_create(p->dir, meta, &err);
		json_decref(meta);
		if (rc != 0 || given_variants_keep(&p->given, p->dir, &err) < 0)
			die("run: %s", err.buf);
		free(p->run_id);
		free(p->dir);
	}
	if (slurm_run_write(&r, &err) < 0 || slurm_run_submit(&r, r.first_look, true, &err) < 0)
		die("run: --slurm: %s", err.buf);
	if (p->clock.clock == GUEST_CLOCK_REALTIME)
		note("clock realtime: the trials' timings depend on the node that runs them; give "
		     "the jobs one node type (--sbatch=--constraint=... or a partition of one) for "
		     "figures that compare (docs/CLUSTER.md); lab results names the CPUs they ran on");
	printf("slurm:    %s\nprogress: lab results %s\nresults:  %s (once the merge job ran)\n",
	       r.slurm_dir, r.run_dir, r.run_dir);
	slurm_run_clear(&r);
	return 0;
}

/* lab run --resume on a Slurm run; -1 when RUN is none. */
int slurm_run_resume_named(const char *run, unsigned jobs, bool look)
{
	struct slurm_run r;
	struct strbuf err = STRBUF_INIT;
	int found = slurm_run_find(run, &r, &err);
	if (found < 0)
		die_usage("run: --resume %s: %s", run, err.buf);
	if (found == 0)
		return -1;
	if (jobs)
		die_usage("run: --resume %s: -j: a Slurm run's shards keep the -j it was submitted "
			  "with (its shards.sh)", run);
	if ((look ? slurm_run_decide(&r, &err) : slurm_run_resume(&r, &err)) < 0)
		die("run: --resume %s%s: %s", run, look ? " --slurm-look" : "", err.buf);
	slurm_run_clear(&r);
	return 0;
}
