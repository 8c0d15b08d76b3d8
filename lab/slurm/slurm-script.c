/* The batch scripts of a Slurm run (slurm-script.h). */
#include "slurm-script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
	[SLURM_SCRIPT_BUILD] = "build",
	[SLURM_SCRIPT_SHARDS] = "shards",
	[SLURM_SCRIPT_DECIDE] = "decide",
	[SLURM_SCRIPT_MERGE] = "merge",
};

const char *slurm_script_name(enum slurm_script which)
{
	static const char *const files[] = {
		[SLURM_SCRIPT_BUILD] = "build.sh",
		[SLURM_SCRIPT_SHARDS] = "shards.sh",
		[SLURM_SCRIPT_DECIDE] = "decide.sh",
		[SLURM_SCRIPT_MERGE] = "merge.sh",
	};
	return files[which];
}

char *slurm_script_log(const struct slurm_script_spec *spec, enum slurm_script which, const char *id)
{
	return xasprintf("%s/logs/%s-%s.log", spec->slurm_dir, names[which], id);
}

int slurm_script_path_ok(const char *path)
{
	return strpbrk(path, " \t\n'\"\\%") ? -1 : 0;
}

static void add_quoted(struct strbuf *sb, const char *word)
{
	char *q = shell_quote(word);
	strbuf_addstr(sb, q);
	free(q);
}

/* A shard's folder in the Slurm folder; K NULL: "$k", the array task's. */
static void add_shard_dir(struct strbuf *sb, const struct slurm_script_spec *spec, const char *k)
{
	char *dir = xasprintf("%s/shard-", spec->slurm_dir);
	add_quoted(sb, dir);
	strbuf_addstr(sb, k ? k : "\"$k\"");
	free(dir);
}

char *slurm_script_text(const struct slurm_script_spec *spec, enum slurm_script which)
{
	static const char *const what[] = {
		[SLURM_SCRIPT_BUILD] = "builds the kernels, selftests and guest images the shards "
				       "need into the shared cache",
		[SLURM_SCRIPT_SHARDS] = "the shards: array task K runs shard K's trials (lab run "
					"--resume), those it lacks, of the first $OOMLAB_SLURM_ROUNDS "
					"rounds when that is set",
		[SLURM_SCRIPT_DECIDE] = "a sequential run's look after a round: the next round, "
					"or the merge",
		[SLURM_SCRIPT_MERGE] = "merges the shards into the run and writes its comparison "
				       "and report",
	};
	struct strbuf sb = STRBUF_INIT;
	/* every value of a '#' line too: a newline in one would end the comment */
	char *id = shell_comment_word(spec->run_id), *run_dir = shell_comment_word(spec->run_dir);
	strbuf_addf(&sb, "#!/bin/sh\n# oomlab run %s: %s.\n", id, what[which]);
	strbuf_addf(&sb, "# Written and submitted by lab run --slurm; lab results %s shows the "
		    "jobs.\n", run_dir);
	free(id);
	free(run_dir);
	strbuf_addf(&sb, "#SBATCH --job-name=oomlab-%s\n", names[which]);
	/* the log slurm_script_log() names, Slurm filling in the job id (and task);
	 * sbatch reads #SBATCH lines without sh's quoting (slurm_script_path_ok) */
	char *log = slurm_script_log(spec, which, which == SLURM_SCRIPT_SHARDS ? "%A_%a" : "%j");
	char *log_line = shell_comment_text(log);
	strbuf_addf(&sb, "#SBATCH --output=%s\n", log_line);
	free(log_line);
	free(log);
	for (size_t i = 0; spec->sbatch && i < spec->sbatch->n; i++) {
		char *opt = shell_comment_text(spec->sbatch->items[i]);
		strbuf_addf(&sb, "#SBATCH %s\n", opt);
		free(opt);
	}
	strbuf_addstr(&sb, "set -u\nOOMLAB_CACHE=");
	add_quoted(&sb, spec->cache);
	strbuf_addstr(&sb, " OOMLAB_RESULTS=");
	add_quoted(&sb, spec->results);
	strbuf_addstr(&sb, "\nexport OOMLAB_CACHE OOMLAB_RESULTS\nlab=");
	add_quoted(&sb, spec->lab);
	strbuf_addstr(&sb, "\n");
	switch (which) {
	case SLURM_SCRIPT_BUILD:
		strbuf_addstr(&sb, "\"$lab\" run --resume ");
		add_shard_dir(&sb, spec, "1");
		strbuf_addstr(&sb, " --build-only\n");
		break;
	case SLURM_SCRIPT_SHARDS:
		strbuf_addstr(&sb, "k=$SLURM_ARRAY_TASK_ID\n\"$lab\" run --resume ");
		add_shard_dir(&sb, spec, NULL);
		if (spec->jobs)
			strbuf_addf(&sb, " -j %u", spec->jobs);
		else
			strbuf_addstr(&sb, " -j \"${SLURM_CPUS_PER_TASK:-1}\"");
		strbuf_addstr(&sb, " ${OOMLAB_SLURM_ROUNDS:+--rounds \"$OOMLAB_SLURM_ROUNDS\"}\n");
		break;
	case SLURM_SCRIPT_DECIDE:
		strbuf_addstr(&sb, "\"$lab\" run --resume ");
		add_quoted(&sb, spec->run_dir);
		strbuf_addstr(&sb, " --slurm-look\n");
		break;
	case SLURM_SCRIPT_MERGE:
		strbuf_addstr(&sb, "run=");
		add_quoted(&sb, spec->run_dir);
		strbuf_addstr(&sb, "\n\"$lab\" results --merge");
		for (unsigned k = 1; k <= spec->shards; k++) {
			char num[16];
			snprintf(num, sizeof(num), "%u", k);
			strbuf_addstr(&sb, " ");
			add_shard_dir(&sb, spec, num);
		}
		strbuf_addstr(&sb, " -o \"$run\" &&\n"
				   "\t\"$lab\" compare \"$run\" > \"$run/comparison.txt\" &&\n"
				   "\t\"$lab\" report \"$run\" > /dev/null\n");
		break;
	}
	/* how it ended, where, on which CPU (realtime figures depend on it) */
	strbuf_addstr(&sb, "rc=$?\nstatus=");
	char *status = xasprintf("%s/status", spec->slurm_dir);
	add_quoted(&sb, status);
	free(status);
	strbuf_addf(&sb, "/$SLURM_JOB_ID\n"
			 "[ -z \"${SLURM_ARRAY_JOB_ID:-}\" ] ||\n"
			 "\tstatus=${status%%/*}/${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID\n"
			 "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)\n"
			 "printf 'exit=%%s\\nnode=%%s\\ncpu=%%s\\n' \"$rc\" \"${SLURMD_NODENAME:-}\" "
			 "\"$cpu\" > \"$status.tmp\" && mv \"$status.tmp\" \"$status\"\n"
			 "exit $rc\n");
	return strbuf_detach(&sb);
}
