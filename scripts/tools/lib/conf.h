/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf: the one reader of a run folder's key=value files (run.conf,
 * status, matrix.conf) and of rl-scenario-info's key=value output.
 *
 * The rule, everywhere (C here, and the shell through rl-conf: lib.sh's
 * conf_value and scenario.sh's info_value): a line "KEY=VALUE" gives KEY
 * the rest of the line after the first '='; when KEY has more than one
 * line, the last one wins (as a shell that sourced the file would end up
 * with, though nothing is ever sourced); VALUE is text, never evaluated.
 * Single quotes around a whole value, which folders written before
 * 2026-12 have, are removed.  Lines that are not KEY=... are skipped.
 */
#ifndef RECLAIMLAB_CONF_H
#define RECLAIMLAB_CONF_H

/* KEY's value in text (a file's contents); malloc'ed, NULL if not there. */
char *conf_value(const char *text, const char *key);

/* The same, "" when KEY is not there or text is NULL; never NULL. */
char *conf_value_or_empty(const char *text, const char *key);

#endif
