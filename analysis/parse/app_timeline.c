/* app_timeline.c - the apps workload's timeline from out.log (app_timeline.h). */
#include "app_timeline.h"

#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/proto/app-events.h"
#include "common/proto/app-tiers.h"
#include "common/util.h"

enum ev_kind { EV_STATE, EV_LAUNCH, EV_DEATH, EV_ALIVE };

struct ev {
	enum ev_kind kind;
	uint64_t t_ns;
	size_t seq;             /* file order, for ties */
	int app, tier, signal;
	bool alive, cold, ok;
	double ms;
	unsigned n_alive, n_cached;
};

struct collect {
	struct ev *v;
	size_t n, alloc;
};

static bool get_int(json_t *o, const char *key, long long *v)
{
	json_t *x = json_object_get(o, key);
	if (!json_is_number(x))
		return false;
	*v = json_is_integer(x) ? json_integer_value(x) : (long long)json_real_value(x);
	return true;
}

static void take(json_t *o, void *ctx)
{
	struct collect *c = ctx;
	const char *type = jsonl_type(o);
	const char *w = json_string_value(json_object_get(o, "workload"));
	const char *name = json_string_value(json_object_get(o, "name"));
	long long t, app = -1, v;
	if (!type || strcmp(type, "event") || !w || strcmp(w, APPS_WORKLOAD) || !name ||
	    !get_int(o, "t_mono_ns", &t) || t < 0)
		return;
	struct ev e = { .t_ns = (uint64_t)t, .seq = c->n, .tier = APP_TIER_CACHED };
	get_int(o, APP_FIELD_APP, &app);
	e.app = (int)app;
	const char *tier = json_string_value(json_object_get(o, APP_FIELD_TIER));
	if (tier && app_tier_from_name(tier) >= 0)
		e.tier = app_tier_from_name(tier);
	if (!strcmp(name, APP_EVENT_STATE) && app >= 0) {
		e.kind = EV_STATE;
		e.alive = get_int(o, APP_FIELD_PID, &v) && v > 0;
	} else if (!strcmp(name, APP_EVENT_LAUNCH) && app >= 0) {
		const char *kind = json_string_value(json_object_get(o, APP_FIELD_KIND));
		e.kind = EV_LAUNCH;
		e.cold = kind && !strcmp(kind, APP_LAUNCH_COLD);
		e.ok = json_is_true(json_object_get(o, APP_FIELD_OK));
		e.ms = json_number_value(json_object_get(o, APP_FIELD_MS));
	} else if (!strcmp(name, APP_EVENT_DEATH) && app >= 0) {
		e.kind = EV_DEATH;
		e.signal = get_int(o, APP_FIELD_SIGNAL, &v) ? (int)v : 0;
	} else if (!strcmp(name, APP_EVENT_ALIVE)) {
		e.kind = EV_ALIVE;
		e.n_alive = get_int(o, APP_FIELD_ALIVE, &v) && v >= 0 ? (unsigned)v : 0;
		e.n_cached = get_int(o, APP_FIELD_CACHED, &v) && v >= 0 ? (unsigned)v : 0;
	} else {
		return;
	}
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n++] = e;
}

static int by_time(const void *pa, const void *pb)
{
	const struct ev *a = pa, *b = pb;
	if (a->t_ns != b->t_ns)
		return a->t_ns < b->t_ns ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct app_now {
	bool seen;
	int tier;
	bool alive;
	uint64_t since;
};

struct replay {
	struct app_timeline *tl;
	struct app_now *now;
	size_t alloc_spans;
};

/* App A's state becomes (TIER, ALIVE) at T: the span before it ends there. */
static void change(struct replay *r, int a, int tier, bool alive, uint64_t t)
{
	struct app_now *n = &r->now[a];
	struct app_timeline *tl = r->tl;
	if (n->seen && n->since < t && (n->tier != tier || n->alive != alive)) {
		ALLOC_GROW(tl->spans, tl->n_spans + 1, r->alloc_spans);
		tl->spans[tl->n_spans++] = (struct app_span){ a, n->tier, n->alive, n->since, t };
	}
	if (!n->seen || n->tier != tier || n->alive != alive) {
		if (!n->seen || n->since < t)
			n->since = t;
		n->seen = true;
		n->tier = tier;
		n->alive = alive;
	}
}

int app_timeline_parse(const char *text, size_t len, struct app_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	struct collect c = { 0 };
	jsonl_parse(text, len, take, &c);
	if (!c.n) {
		free(c.v);
		return -1;
	}
	qsort(c.v, c.n, sizeof(*c.v), by_time);
	int max_app = -1;
	tl->start_ns = c.v[0].t_ns;
	tl->end_ns = c.v[0].t_ns;
	for (size_t i = 0; i < c.n; i++) {
		if (c.v[i].kind != EV_ALIVE && c.v[i].app > max_app && c.v[i].app < 4096)
			max_app = c.v[i].app;
		uint64_t end = c.v[i].t_ns + (c.v[i].kind == EV_LAUNCH && c.v[i].ms > 0
					       ? (uint64_t)(c.v[i].ms * 1e6) : 0);
		if (end > tl->end_ns)
			tl->end_ns = end;
	}
	tl->napps = (unsigned)(max_app + 1);
	struct replay r = { tl, xcalloc(tl->napps ? tl->napps : 1, sizeof(struct app_now)), 0 };
	size_t alloc_l = 0, alloc_d = 0, alloc_a = 0;
	for (size_t i = 0; i < c.n; i++) {
		const struct ev *e = &c.v[i];
		if (e->kind == EV_ALIVE) {
			ALLOC_GROW(tl->alive, tl->n_alive + 1, alloc_a);
			tl->alive[tl->n_alive++] = (struct app_alive_sample){ e->t_ns, e->n_alive, e->n_cached };
			continue;
		}
		if (e->app < 0 || (unsigned)e->app >= tl->napps)
			continue;
		struct app_now *n = &r.now[e->app];
		int tier = n->seen ? n->tier : APP_TIER_CACHED;
		switch (e->kind) {
		case EV_STATE:
			change(&r, e->app, e->tier, e->alive, e->t_ns);
			break;
		case EV_LAUNCH:
			ALLOC_GROW(tl->launches, tl->n_launches + 1, alloc_l);
			tl->launches[tl->n_launches++] =
				(struct app_launch_mark){ e->app, e->t_ns, e->ms, e->cold, e->ok };
			if (e->cold)
				change(&r, e->app, tier, true, e->t_ns);
			break;
		case EV_DEATH:
			ALLOC_GROW(tl->deaths, tl->n_deaths + 1, alloc_d);
			tl->deaths[tl->n_deaths++] =
				(struct app_death_mark){ e->app, e->t_ns, e->tier, e->signal };
			change(&r, e->app, tier, false, e->t_ns);
			break;
		default:
			break;
		}
	}
	for (unsigned a = 0; a < tl->napps; a++)
		if (r.now[a].seen && r.now[a].since < tl->end_ns) {
			ALLOC_GROW(tl->spans, tl->n_spans + 1, r.alloc_spans);
			tl->spans[tl->n_spans++] = (struct app_span){ (int)a, r.now[a].tier, r.now[a].alive,
								      r.now[a].since, tl->end_ns };
		}
	free(r.now);
	free(c.v);
	return 0;
}

int app_timeline_read(const char *path, struct app_timeline *tl)
{
	size_t len;
	char *text = read_file(path, &len);
	memset(tl, 0, sizeof(*tl));
	if (!text)
		return -1;
	int rc = app_timeline_parse(text, len, tl);
	free(text);
	return rc;
}

void app_timeline_release(struct app_timeline *tl)
{
	free(tl->spans);
	free(tl->launches);
	free(tl->deaths);
	free(tl->alive);
	memset(tl, 0, sizeof(*tl));
}
