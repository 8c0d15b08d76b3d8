/* The lab's version: git describe --always --dirty of its source when it
 * was built ("v1.2-3-gabc1234-dirty"), or "unknown" when built outside git
 * (the Makefile writes it into build/gen/lab-version.h). run.json, every
 * trial.json and the report carry it. */
#ifndef LAB_VERSION_H
#define LAB_VERSION_H

const char *lab_version(void);

#endif
