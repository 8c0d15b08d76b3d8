/*
 * debug_pressure.h - whether a debug group met the memory pressure its plain
 * twin met. A debug build allocates more (red zones, owner tracking,
 * lockdep's records), so its trials can fail order-3 tries, fall back, kill
 * and panic where the plain build's do not; its rows then compare another
 * memory regime, and the table says so. For each group "V+debug" of a run
 * that also has "V": one note with both sides' figures, each tested at
 * 0.05 uncorrected (Fisher's exact test for shares, the permutation test of
 * Welch's t for counts a trial): a check that says where to look, not a
 * verdict of the table's family.
 */
#ifndef OOMLAB_DEBUG_PRESSURE_H
#define OOMLAB_DEBUG_PRESSURE_H

#include "analysis/run/run-data.h"
#include "common/util.h"

/* Appends one line per debug group with a plain twin to NOTES; SEED for sampled permutations. */
void debug_pressure_notes(const struct run_data *rd, unsigned long seed, struct strlist *notes);

#endif
