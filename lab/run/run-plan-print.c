/* lab run --dry-run's plan (run-plan.h). */
#include "run-plan.h"

#include <stdio.h>
#include <string.h>

#include "analysis/store/store.h"
#include "design-check.h"
#include "lab/kernel/kbuild.h"
#include "lab/machine/apic-timer.h"

/* "12 min" or "40 s" for an estimate. */
static void add_span(struct strbuf *sb, double seconds)
{
	if (seconds < 120)
		strbuf_addf(sb, "%.0f s", seconds);
	else
		strbuf_addf(sb, "%.0f min", seconds / 60);
}

/* The APIC timer the baseline's trials will boot with, as trial.json names
 * it (apic-timer.h): a kernel the lab builds gets the lab's patch, whose
 * build has not necessarily happened yet; "none" on arm64. */
static const char *planned_apic_timer(const struct run_plan *p)
{
	if (p->exp.platform.arch != ARCH_X86_64)
		return "none";
	const struct variant *base = variant_find(&p->variants, p->exp.baseline);
	bool takes = base && (kernel_is_cached(base) ? kernel_has_lab_patch(base) : base->platform_patch != NULL);
	return apic_timer_name(apic_timer_for(p->profile.apic_timer, p->clock.clock, takes));
}

/* --dry-run: what the run would do, all checked, nothing built or booted. */
void run_plan_print(const struct run_plan *p)
{
	char *platform = platform_name(&p->exp.platform);
	printf("plan of %s (--dry-run: everything checked, nothing built or booted)\n", p->exp.name);
	printf("  experiment  %s\n", p->exp.path);
	printf("  machine     %s (%s), clock %s\n", p->profile.name, platform,
	       guest_clock_name(p->clock.clock));
	free(platform);
	printf("  groups     ");
	for (size_t i = 0; i < p->labels.n; i++)
		printf(" %s%s", p->labels.items[i], strcmp(p->labels.items[i], p->exp.baseline) ? "" : " (baseline)");
	printf("\n");
	unsigned rounds = run_plan_rounds(&p->exp);
	if (p->exp.until_decided)
		printf("  trials      until decided: a look after each round from round %u on, at most "
		       "%u a group\n", SEQUENTIAL_FIRST_LOOK, rounds);
	else
		printf("  trials      %u a group\n", rounds);
	printf("  at once     %u (from %s)\n", p->jobs, p->jobs_from);
	for (size_t i = 0; i < p->exp.workloads.n; i++)
		printf("  workload    %s\n", p->exp.workloads.items[i]);
	printf("  headline   ");
	for (size_t i = 0; i < p->exp.metrics.n; i++)
		printf(" %s", p->exp.metrics.items[i]);
	printf("%s\n", p->exp.metrics.n ? "" : " every metric that varies");
	size_t to_build = 0;
	for (size_t i = 0; i < p->labels.n; i++) {
		if (strchr(p->labels.items[i], '#'))
			continue;
		const struct variant *v = variant_find(&p->variants, p->labels.items[i]);
		bool cached = kernel_is_cached(v);
		to_build += !cached;
		printf("  kernel      %s %.12s: %s\n", v->name, v->hash, cached ? "cached" : "to build");
	}
	struct strbuf why = STRBUF_INIT;
	if (design_check(&p->exp, &p->labels, &why) > 0)
		printf("  design      %s\n", why.buf);
	else
		printf("  design      can decide a row better, worse or differs\n");
	strbuf_reset(&why);
	/* the estimate: earlier trials like these, from the results store */
	struct store *store = NULL;
	struct store_trial_seconds t = { 0 };
	char *path = store_default_path();
	const char *timer = planned_apic_timer(p);
	if (path_exists(path) && store_open(path, &store, &why) == 0)
		store_trial_seconds(store, p->exp.name, p->profile.name, guest_clock_name(p->clock.clock),
				    timer, &t, &why);
	if (store)
		store_close(store);
	free(path);
	struct strbuf est = STRBUF_INIT;
	if (t.n) {
		size_t groups = p->labels.n, jobs = p->jobs ? p->jobs : 1;
		unsigned first = p->exp.until_decided ? SEQUENTIAL_FIRST_LOOK : rounds;
		double least = (double)((groups * first + jobs - 1) / jobs) * t.median;
		double most = (double)((groups * rounds + jobs - 1) / jobs) * t.median;
		strbuf_addstr(&est, "about ");
		add_span(&est, least);
		if (most > least) {
			strbuf_addstr(&est, " (decided at the first look) to ");
			add_span(&est, most);
			strbuf_addstr(&est, " (at most)");
		}
		strbuf_addf(&est, " of trials: a median %.0f s a trial in %ld earlier ok trials of %s on %s, "
			    "clock %s, APIC timer %s, at their runs' -j", t.median, t.n,
			    t.any_experiment ? "any experiment" : p->exp.name, p->profile.name,
			    guest_clock_name(p->clock.clock), timer);
	} else {
		strbuf_addf(&est, "no earlier trials on %s with clock %s and APIC timer %s in the results "
			    "store: each trial takes at most its timeout, %.0f s", p->profile.name,
			    guest_clock_name(p->clock.clock), timer, p->exp.trial_timeout);
	}
	if (to_build)
		strbuf_addf(&est, "; %zu kernel%s to build first (minutes each: docs/BENCH.md)", to_build,
			    to_build == 1 ? "" : "s");
	printf("  time        %s\n", est.buf);
	strbuf_release(&est);
	strbuf_release(&why);
}
