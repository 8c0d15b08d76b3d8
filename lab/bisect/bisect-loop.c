/* lab bisect's decision loop (bisect-loop.h). */
#include "bisect-loop.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab/run/experiment.h"

/* The endpoint check: looks after every round from the third, until its
 * verdict is decided or max_trials; GOOD and BAD keep the trials of the
 * look that decided, every step's references. */
static int check_endpoints(const struct bisect_design *d, const struct bisect_source *src,
			   struct bisect_trials *good, struct bisect_trials *bad,
			   struct bisect_endpoint_look *look, struct strbuf *err)
{
	size_t max = d->metric.max_trials;
	for (size_t n = SEQUENTIAL_FIRST_LOOK;; n++) {
		if (n > max)
			n = max;
		bisect_trials_free(good);
		bisect_trials_free(bad);
		if (src->endpoints(src->ctx, n, good, bad, err) < 0)
			return -1;
		if (bisect_judge_endpoints(&d->metric, d->alpha, good, bad, look) < 0) {
			strbuf_addf(err, "the endpoint check's comparison could not be built at %zu trials", n);
			return -1;
		}
		bool final = look->decided || n >= max;
		if (src->endpoint_look)
			src->endpoint_look(src->ctx, look, final);
		if (final)
			return 0;
	}
}

/* One step on candidate I: its build, then its trials in rounds, a look
 * after every step_per_look of them from the third. */
static int run_step(const struct bisect_design *d, const struct bisect_source *src, size_t step,
		    size_t i, const struct bisect_trials *good, const struct bisect_trials *bad,
		    int bad_dir, double step_alpha, struct bisect_step *s, struct strbuf *err)
{
	size_t max = d->metric.max_trials, per_look = d->step_per_look ? d->step_per_look : 1;
	memset(s, 0, sizeof(*s));
	s->look.p_good = s->look.p_bad = s->look.level = NAN;	/* no look yet */
	struct strbuf why = STRBUF_INIT;
	int built = src->build(src->ctx, step, i, &why, err);
	if (built != 0) {
		s->mark = BISECT_SKIP;
		snprintf(s->why, sizeof(s->why), "the build failed: %s", why.buf);
		strbuf_release(&why);
		return built < 0 ? -1 : 0;
	}
	strbuf_release(&why);
	for (size_t n = SEQUENTIAL_FIRST_LOOK;; n += per_look) {
		if (n > max)
			n = max;
		struct bisect_trials m = { 0 };
		if (src->trials(src->ctx, step, i, n, &m, err) < 0)
			return -1;
		struct bisect_look *l = &s->look;
		int judged = bisect_judge_look(&d->metric, good, bad, &m, bad_dir, step_alpha, l);
		s->trials = m.n + m.n_other;
		bisect_trials_free(&m);
		if (l->boot_failures) {
			s->mark = BISECT_SKIP;
			snprintf(s->why, sizeof(s->why), "the kernel does not boot (%zu boot-failure%s)",
				 l->boot_failures, l->boot_failures == 1 ? "" : "s");
			return 0;
		}
		if (judged < 0) {
			strbuf_addf(err, "step %zu's comparison could not be built at %zu trials", step, n);
			return -1;
		}
		if (src->step_look)
			src->step_look(src->ctx, step, i, l);
		if (l->call == BISECT_CALL_GOOD || l->call == BISECT_CALL_BAD) {
			s->mark = l->call == BISECT_CALL_GOOD ? BISECT_GOOD : BISECT_BAD;
			snprintf(s->why, sizeof(s->why), "like %s: against good p %.3g, against bad "
				 "p %.3g, level %.3g", bisect_call_name(l->call), l->p_good, l->p_bad,
				 l->level);
			return 0;
		}
		if (l->call == BISECT_CALL_BOTH) {
			s->mark = BISECT_SKIP;
			snprintf(s->why, sizeof(s->why), "inconclusive: it differs from good and from "
				 "bad (p %.3g, %.3g, level %.3g)", l->p_good, l->p_bad, l->level);
			return 0;
		}
		if (n >= max) {
			s->mark = BISECT_SKIP;
			snprintf(s->why, sizeof(s->why), "inconclusive at %zu trials: against good p "
				 "%.3g, against bad p %.3g, level %.3g", max, l->p_good, l->p_bad,
				 l->level);
			return 0;
		}
	}
}

int bisect_loop_run(const struct bisect_design *d, const struct bisect_prior *prior, size_t n_prior,
		    const struct bisect_source *src, struct bisect_result *res, struct strbuf *err)
{
	struct bisect_trials good = { 0 }, bad = { 0 };
	memset(res, 0, sizeof(*res));
	res->max_steps = bisect_max_steps(d->candidates, d->skips);
	res->step_alpha = bisect_step_alpha(d->alpha, res->max_steps);
	bisect_range_init(&res->range, d->candidates);
	int rc = check_endpoints(d, src, &good, &bad, &res->endpoints, err);
	if (rc == 0 && !res->endpoints.differs) {
		res->end = BISECT_END_NO_DIFFERENCE;
		goto out;
	}
	for (size_t k = 0; rc == 0 && k < n_prior; k++) {
		if (prior[k].index >= d->candidates) {
			strbuf_addf(err, "a step's candidate %zu is not one of the %zu", prior[k].index,
				    d->candidates);
			rc = -1;
			break;
		}
		bisect_range_mark(&res->range, prior[k].index, prior[k].mark);
		res->steps++;
		res->skipped += prior[k].mark == BISECT_SKIP;
	}
	while (rc == 0) {
		size_t next;
		enum bisect_state state = bisect_range_next(&res->range, &next);
		if (state == BISECT_FOUND) {
			res->end = BISECT_END_FOUND;
			break;
		}
		if (state == BISECT_ONLY_SKIPPED) {
			res->end = BISECT_END_ONLY_SKIPPED;
			break;
		}
		if (res->steps >= res->max_steps) {
			res->end = BISECT_END_BUDGET_SPENT;
			break;
		}
		struct bisect_step s;
		rc = run_step(d, src, ++res->steps, next, &good, &bad, res->endpoints.bad_dir,
			      res->step_alpha, &s, err);
		if (rc < 0)
			break;
		bisect_range_mark(&res->range, next, s.mark);
		res->skipped += s.mark == BISECT_SKIP;
		if (src->stepped)
			src->stepped(src->ctx, res->steps, next, &s, &res->range);
	}
out:
	bisect_trials_free(&good);
	bisect_trials_free(&bad);
	return rc;
}
