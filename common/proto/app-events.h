/*
 * What the apps workload (workloads/apps.c) writes to out.log about its
 * apps, defined once for the workload and the host that replays it
 * (analysis/parse/app_timeline.c, for the report's timeline and the
 * Perfetto lanes), and the name every app process gives itself, which the
 * trace sees (analysis/trace/app_launches.c, window.c).
 *
 * Each is a workload event (workloads/lib/report.h: "type":"event",
 * "workload":"apps", "name", "t_mono_ns") with these fields:
 *   app-switch   step, app, tier, prev_visible     a step of the sequence
 *   app-state    step, app, pid (0: not running), tier, adj
 *   app-launch   step, app, pid, kind (cold|warm), ms, ok, error; stamped
 *                with the switch's time, written once the app is ready
 *   app-death    app, pid, status, signal, tier, adj, lived_ms
 *   apps-alive   alive, cached                      a sample
 */
#ifndef OOMLAB_APP_EVENTS_H
#define OOMLAB_APP_EVENTS_H

#define APPS_WORKLOAD        "apps"

/* An app process names itself APP_COMM_PREFIX and its index (prctl). */
#define APP_COMM_PREFIX      "app-"
#define APP_COMM_FORMAT      APP_COMM_PREFIX "%02u"

#define APP_EVENT_SWITCH     "app-switch"
#define APP_EVENT_STATE      "app-state"
#define APP_EVENT_LAUNCH     "app-launch"
#define APP_EVENT_DEATH      "app-death"
#define APP_EVENT_ALIVE      "apps-alive"

#define APP_FIELD_APP        "app"
#define APP_FIELD_PID        "pid"
#define APP_FIELD_TIER       "tier"
#define APP_FIELD_KIND       "kind"
#define APP_FIELD_MS         "ms"
#define APP_FIELD_OK         "ok"
#define APP_FIELD_SIGNAL     "signal"
#define APP_FIELD_ALIVE      "alive"
#define APP_FIELD_CACHED     "cached"

#define APP_LAUNCH_COLD      "cold"
#define APP_LAUNCH_WARM      "warm"

#endif
