/* oom_victims.c - OOM victim timelines (oom_victims.h). */
#include "oom_victims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void oom_timeline_init(struct oom_timeline *t)
{
	memset(t, 0, sizeof(*t));
}

void oom_timeline_release(struct oom_timeline *t)
{
	free(t->v);
	free(t->exits);
	memset(t, 0, sizeof(*t));
}

static struct oom_victim *new_victim(struct oom_timeline *t, int pid)
{
	ALLOC_GROW(t->v, t->n + 1, t->alloc);
	struct oom_victim *v = &t->v[t->n++];
	memset(v, 0, sizeof(*v));
	v->pid = pid;
	v->killed_ns = v->mark_victim_ns = v->wake_reaper_ns = v->start_reaping_ns =
		v->finish_reaping_ns = v->skip_reaping_ns = v->exit_ns = OOM_NO_TIME;
	return v;
}

/* The latest victim of PID marked at or before T_NS. */
static struct oom_victim *victim_at(struct oom_timeline *t, int pid, uint64_t t_ns)
{
	for (size_t i = t->n; i-- > 0;)
		if (t->v[i].pid == pid && t->v[i].mark_victim_ns != OOM_NO_TIME &&
		    t->v[i].mark_victim_ns <= (int64_t)t_ns)
			return &t->v[i];
	return NULL;
}

static void mark_victim(struct oom_timeline *t, const struct perf_sample *s)
{
	long long pid, x;
	if (!perf_field_long(s, "pid", &pid))
		return;
	t->mark_victim_events++;
	struct oom_victim *v = new_victim(t, (int)pid);
	v->in_trace = true;
	v->mark_victim_ns = (int64_t)s->t_ns;
	const char *comm = perf_field(s, "comm");
	snprintf(v->comm, sizeof(v->comm), "%s", comm ? comm : "");
	v->have_rss = perf_field_long(s, "anon-rss", &v->anon_rss_kb) &&
		      perf_field_long(s, "file-rss", &v->file_rss_kb) &&
		      perf_field_long(s, "shmem-rss", &v->shmem_rss_kb);
	if (perf_field_long(s, "total-vm", &x))
		v->total_vm_kb = x;
	if (perf_field_long(s, "pgtables", &x))
		v->pgtables_kb = x;
	if (perf_field_long(s, "oom_score_adj", &x))
		v->oom_score_adj = (int)x;
}

static void first(int64_t *slot, uint64_t t_ns)
{
	if (*slot == OOM_NO_TIME)
		*slot = (int64_t)t_ns;
}

void oom_timeline_sample(struct oom_timeline *t, const struct perf_sample *s)
{
	const char *e = s->event;
	if (!strcmp(e, "sched:sched_process_exit")) {
		ALLOC_GROW(t->exits, t->n_exits + 1, t->alloc_exits);
		t->exits[t->n_exits++] = (struct oom_exit){ s->pid, s->t_ns };
		return;
	}
	if (!starts_with(e, "oom:"))
		return;
	e += 4;
	if (!strcmp(e, "mark_victim")) {
		mark_victim(t, s);
		return;
	}
	long long pid;
	if (!perf_field_long(s, "pid", &pid))
		return;
	struct oom_victim *v = victim_at(t, (int)pid, s->t_ns);
	if (!v)
		return;
	if (!strcmp(e, "wake_reaper")) {
		first(&v->wake_reaper_ns, s->t_ns);
	} else if (!strcmp(e, "start_task_reaping")) {
		first(&v->start_reaping_ns, s->t_ns);
		v->reap_attempts++;
	} else if (!strcmp(e, "finish_task_reaping")) {
		v->finish_reaping_ns = (int64_t)s->t_ns;
	} else if (!strcmp(e, "skip_task_reaping")) {
		first(&v->skip_reaping_ns, s->t_ns);
		v->reap_attempts++;
	}
}

void oom_timeline_add_reports(struct oom_timeline *t, const struct oom_reports *r)
{
	for (size_t i = 0; i < r->n_kills; i++) {
		const struct oom_kill_report *k = &r->kills[i];
		struct oom_victim *v = NULL;
		for (size_t j = 0; j < t->n && !v; j++)
			if (t->v[j].pid == k->pid && !t->v[j].in_kmsg)
				v = &t->v[j];
		if (!v)
			v = new_victim(t, k->pid);
		v->in_kmsg = true;
		v->killed_ns = (int64_t)k->usec * 1000;
		snprintf(v->comm, sizeof(v->comm), "%s", k->comm);
		snprintf(v->constraint, sizeof(v->constraint), "%s", k->constraint);
		v->have_rss = true;
		v->total_vm_kb = k->total_vm_kb;
		v->anon_rss_kb = k->anon_rss_kb;
		v->file_rss_kb = k->file_rss_kb;
		v->shmem_rss_kb = k->shmem_rss_kb;
		v->pgtables_kb = k->pgtables_kb;
		v->oom_score_adj = k->oom_score_adj;
	}
	for (size_t i = 0; i < r->n_reaps; i++)
		for (size_t j = t->n; j-- > 0;)
			if (t->v[j].pid == r->reaps[i].pid) {
				t->v[j].reaped_kmsg = true;
				break;
			}
}

static int64_t kill_time(const struct oom_victim *v)
{
	return v->mark_victim_ns != OOM_NO_TIME ? v->mark_victim_ns : v->killed_ns;
}

static int by_time(const void *a, const void *b)
{
	const struct oom_victim *x = a, *y = b;
	int64_t tx = kill_time(x), ty = kill_time(y);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void oom_timeline_finish(struct oom_timeline *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct oom_victim *v = &t->v[i];
		int64_t from = v->mark_victim_ns;
		if (from == OOM_NO_TIME)
			continue;       /* no trace of this victim: its exit is not known either */
		for (size_t j = 0; j < t->n_exits; j++)
			if (t->exits[j].tgid == v->pid && (int64_t)t->exits[j].t_ns >= from &&
			    (v->exit_ns == OOM_NO_TIME || (int64_t)t->exits[j].t_ns > v->exit_ns))
				v->exit_ns = (int64_t)t->exits[j].t_ns;
	}
	for (size_t i = 0; i < t->n; i++) {
		struct oom_victim *v = &t->v[i];
		if (v->finish_reaping_ns != OOM_NO_TIME && v->start_reaping_ns != OOM_NO_TIME)
			v->reaped_before_exit = v->exit_ns == OOM_NO_TIME ||
						v->finish_reaping_ns <= v->exit_ns;
		else
			v->reaped_before_exit = !v->in_trace && v->reaped_kmsg;
	}
	if (t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), by_time);
}

static json_t *time_json(int64_t t)
{
	return t == OOM_NO_TIME ? json_null() : json_integer((json_int_t)t);
}

json_t *oom_victims_json(const struct oom_timeline *t)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < t->n; i++) {
		const struct oom_victim *v = &t->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "pid", json_integer(v->pid));
		json_object_set_new(o, "comm", json_string(v->comm));
		json_object_set_new(o, "constraint", *v->constraint ? json_string(v->constraint)
								    : json_null());
		json_object_set_new(o, "total_vm_kb", v->have_rss ? json_integer(v->total_vm_kb)
								  : json_null());
		json_object_set_new(o, "anon_rss_kb", v->have_rss ? json_integer(v->anon_rss_kb)
								  : json_null());
		json_object_set_new(o, "file_rss_kb", v->have_rss ? json_integer(v->file_rss_kb)
								  : json_null());
		json_object_set_new(o, "shmem_rss_kb", v->have_rss ? json_integer(v->shmem_rss_kb)
								   : json_null());
		json_object_set_new(o, "pgtables_kb", v->have_rss ? json_integer(v->pgtables_kb)
								  : json_null());
		json_object_set_new(o, "oom_score_adj", v->have_rss ? json_integer(v->oom_score_adj)
								    : json_null());
		json_object_set_new(o, "killed_ns", time_json(v->killed_ns));
		json_object_set_new(o, "mark_victim_ns", time_json(v->mark_victim_ns));
		json_object_set_new(o, "wake_reaper_ns", time_json(v->wake_reaper_ns));
		json_object_set_new(o, "start_reaping_ns", time_json(v->start_reaping_ns));
		json_object_set_new(o, "finish_reaping_ns", time_json(v->finish_reaping_ns));
		json_object_set_new(o, "skip_reaping_ns", time_json(v->skip_reaping_ns));
		json_object_set_new(o, "exit_ns", time_json(v->exit_ns));
		json_object_set_new(o, "reap_attempts", json_integer(v->reap_attempts));
		json_object_set_new(o, "reaped_before_exit", json_boolean(v->reaped_before_exit));
		json_array_append_new(arr, o);
	}
	return arr;
}
