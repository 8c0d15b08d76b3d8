/* Whom lmkd kills (lmkd-victim.h). */
#include "lmkd-victim.h"

#include "common/proto/app-tiers.h"

/* Whether A was filed at its adj after B (A nearer the list's head). */
static bool newer(const struct lmkd_candidate *c, size_t a, size_t b)
{
	if (c[a].adj_since_ms != c[b].adj_since_ms)
		return c[a].adj_since_ms > c[b].adj_since_ms;
	return a > b;
}

/* The list's tail at ADJ: the one that has held it longest. */
static int tail(const struct lmkd_candidate *c, size_t n, int adj)
{
	int best = -1;
	for (size_t i = 0; i < n; i++)
		if (!c[i].gone && c[i].adj == adj && (best < 0 || newer(c, (size_t)best, i)))
			best = (int)i;
	return best;
}

/* The heaviest at ADJ: walking from the head (newest first), the first with
 * strictly more pages than any before it; the only one, unread. */
static int heaviest(const struct lmkd_candidate *c, size_t n, int adj)
{
	int only = -1, count = 0;
	for (size_t i = 0; i < n; i++)
		if (!c[i].gone && c[i].adj == adj) {
			only = (int)i;
			count++;
		}
	if (count <= 1)
		return only;
	long long max = 0;
	for (size_t i = 0; i < n; i++)
		if (!c[i].gone && c[i].adj == adj && c[i].rss_pages > max)
			max = c[i].rss_pages;
	if (max <= 0)
		return -1;          /* none has a page: lmkd finds no victim here */
	/* of the heaviest, the newest: lmkd meets it first from the head */
	int best = -1;
	for (size_t i = 0; i < n; i++)
		if (!c[i].gone && c[i].adj == adj && c[i].rss_pages == max &&
		    (best < 0 || newer(c, i, (size_t)best)))
			best = (int)i;
	return best;
}

int lmkd_filed_adj(int adj, bool per_app_memcg)
{
	return per_app_memcg && adj >= 600 && adj < 700 ? 200 : adj;
}

int lmkd_pick_victim(const struct lmkd_candidate *c, size_t n, int min_adj, bool kill_heaviest_task)
{
	if (min_adj < 0)
		min_adj = 0;
	for (int adj = LMKD_OOM_SCORE_ADJ_MAX; adj >= min_adj; adj--) {
		bool by_size = kill_heaviest_task || adj <= APP_ADJ_PERCEPTIBLE;
		int v = by_size ? heaviest(c, n, adj) : tail(c, n, adj);
		if (v >= 0)
			return v;
	}
	return -1;
}
