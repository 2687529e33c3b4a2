// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files read as data; see scenario.h for the format.
 */
#include "lib/scenario.h"
#include "lib/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

#define SIZE_LIMIT	(UINT64_C(1) << 62)	/* as the shell scripts' sizes */
#define FILE_MAX	(256 * 1024)

static const char *const field_names[SCN_NFIELDS] = {
	[SCN_MEASURES] = "Measures",
	[SCN_HEADLINE] = "Headline",
	[SCN_THREAD] = "Thread",
	[SCN_COMPARE] = "Compare",
};

static const char *const setting_names[] = {
	"MEM", "PROFILE", "SWAP", "TIMEOUT", "DISK_USE", "MEM_USE", "FS_PROFILE",
};

#define SETTINGS_VALID	"SCN_MEM SCN_PROFILE SCN_SWAP SCN_TIMEOUT SCN_DISK_USE SCN_MEM_USE SCN_FS_PROFILE"
#define TYPES_VALID	"'# size [MIN..MAX]', '# count [MIN..MAX]' or '# one of WORD...'"

const char *scn_field_name(enum scn_field f)
{
	return f < SCN_NFIELDS ? field_names[f] : "?";
}

#define fail cli_fail

/* Copies at most n bytes of src into dst[size]; -1 if it does not fit. */
static int copy_n(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		return -1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

static int copy_str(char *dst, size_t size, const char *src)
{
	return copy_n(dst, size, src, strlen(src));
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void trim_end(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static int is_name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

struct scn_param *scn_param(struct scenario *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nparams; i++)
		if (!strcmp(s->params[i].name, name))
			return &s->params[i];
	return NULL;
}

const struct scn_thread_waits *scn_thread_waits(const struct scenario *s, const char *fs)
{
	size_t i;

	for (i = 0; i < s->nthread_waits; i++)
		if (!strcmp(s->thread_waits[i].fs, fs))
			return &s->thread_waits[i];
	return NULL;
}

const char *scn_lacks(const struct scenario *s, const char *fs)
{
	size_t i;

	for (i = 0; i < s->nlacks; i++)
		if (!strcmp(s->lacks[i].fs, fs))
			return s->lacks[i].text;
	return NULL;
}

static const struct scn_param *find_param(const struct scenario *s,
					  const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->nparams; i++)
		if (strlen(s->params[i].name) == len &&
		    !strncmp(s->params[i].name, name, len))
			return &s->params[i];
	return NULL;
}

/* "a, b, c" of the parameter names, for messages */
static void param_names(const struct scenario *s, char *out, size_t size)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i < s->nparams && used < size; i++)
		used += snprintf(out + used, size - used, "%s%s", i ? " " : "",
				 s->params[i].name);
	if (!s->nparams)
		snprintf(out, size, "none");
}

/* --- values and types ------------------------------------------------ */

static int parse_typed(enum scn_type t, const char *v, uint64_t *out)
{
	if (t == SCN_T_SIZE)
		return rl_parse_size(v, out) == RL_SIZE_OK && *out <= SIZE_LIMIT ? 0 : -1;
	return rl_parse_u64(v, out) && *out <= SIZE_LIMIT ? 0 : -1;
}

static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, " ");

		if (len == n && !strncmp(p, word, n))
			return 1;
		p += len;
		p += strspn(p, " ");
	}
	return 0;
}

/* "from 4M to 64G" with the limits as the file wrote them */
static void range_text(const struct scn_param *p, char *out, size_t size)
{
	const char *dots = strstr(p->type_text, "..");
	const char *lo, *hi;
	int nlo;

	if (!dots) {
		snprintf(out, size, "%s", p->type == SCN_T_SIZE ? "above zero" : "0 or more");
		return;
	}
	lo = p->type_text + strcspn(p->type_text, " ");
	lo = skip_space(lo);
	nlo = (int)(dots - lo);
	hi = dots + 2;
	if (*hi)
		snprintf(out, size, "from %.*s to %s", nlo, lo, hi);
	else
		snprintf(out, size, "%.*s or more", nlo, lo);
}

/*
 * Checks value against p's type; 0 if it fits, else -1 and a message that
 * names the value and the valid ones.
 */
static int scn_check_value(const struct scn_param *p, const char *value,
			   char *err, size_t errlen)
{
	char range[SCN_VALUE_MAX + 16];
	uint64_t v;

	if (p->type == SCN_T_CHOICE) {
		if (word_in(value, p->choices) && !strchr(value, ' ') && *value)
			return 0;
		return fail(err, errlen, "bad value '%s' for %s (valid: one of %s)",
			    value, p->name, p->choices);
	}
	range_text(p, range, sizeof(range));
	if (parse_typed(p->type, value, &v) < 0 || v < p->min || v > p->max) {
		if (p->type == SCN_T_SIZE)
			return fail(err, errlen,
				    "bad value '%s' for %s (valid: a size %s; %s)",
				    value, p->name, range, RL_SIZE_FORMS);
		return fail(err, errlen,
			    "bad value '%s' for %s (valid: a whole number %s)",
			    value, p->name, range);
	}
	return 0;
}

/* "size 4k..64G", "count 1..", "one of v1 v2" into p's type fields */
static int parse_type(struct scn_param *p, const char *text, char *err,
		      size_t errlen)
{
	char buf[SCN_VALUE_MAX], *colon, *range, *dots;
	uint64_t lo, hi;

	if (copy_n(buf, sizeof(buf), text, strlen(text)) < 0)
		return fail(err, errlen, "type of %s too long", p->name);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		copy_str(p->about, sizeof(p->about), skip_space(colon + 1));
		trim_end(p->about);
	}
	trim_end(buf);
	copy_str(p->type_text, sizeof(p->type_text), buf);
	if (!strncmp(buf, "one of ", 7)) {
		const char *w = skip_space(buf + 7);

		if (!*w)
			return fail(err, errlen, "%s: 'one of' names no word", p->name);
		p->type = SCN_T_CHOICE;
		copy_str(p->choices, sizeof(p->choices), w);
		return 0;
	}
	if (!strncmp(buf, "size", 4) && (!buf[4] || buf[4] == ' ')) {
		p->type = SCN_T_SIZE;
		p->min = 1;
		range = buf + 4;
	} else if (!strncmp(buf, "count", 5) && (!buf[5] || buf[5] == ' ')) {
		p->type = SCN_T_COUNT;
		p->min = 0;
		range = buf + 5;
	} else {
		return fail(err, errlen, "%s has type '%s' (valid: %s)", p->name,
			    buf, TYPES_VALID);
	}
	p->max = SIZE_LIMIT;
	range = (char *)skip_space(range);
	if (!*range)
		return 0;
	dots = strstr(range, "..");
	if (!dots)
		return fail(err, errlen, "%s: bad range '%s' (valid: MIN..MAX or MIN..)",
			    p->name, range);
	*dots = '\0';
	if (parse_typed(p->type, range, &lo) < 0 ||
	    (dots[2] && parse_typed(p->type, dots + 2, &hi) < 0) ||
	    (dots[2] && hi < lo))
		return fail(err, errlen, "%s: bad range '%s..%s' (valid: MIN..MAX of %s)",
			    p->name, range, dots + 2,
			    p->type == SCN_T_SIZE ? "sizes" : "whole numbers");
	p->min = lo;
	if (dots[2])
		p->max = hi;
	return 0;
}

/* --- use expressions ------------------------------------------------- */

struct eval {
	const struct scenario *s;
	const char *p;
	char *err;
	size_t errlen;
};

static int eval_sum(struct eval *e, uint64_t *out);

static int eval_factor(struct eval *e, uint64_t *out)
{
	e->p = skip_space(e->p);
	if (*e->p == '(') {
		e->p++;
		if (eval_sum(e, out) < 0)
			return -1;
		e->p = skip_space(e->p);
		if (*e->p != ')')
			return fail(e->err, e->errlen, "missing ')'");
		e->p++;
		return 0;
	}
	if (*e->p >= '0' && *e->p <= '9') {
		char num[24];
		size_t n = strspn(e->p, "0123456789");

		if (copy_n(num, sizeof(num), e->p, n) < 0 ||
		    parse_typed(SCN_T_COUNT, num, out) < 0)
			return fail(e->err, e->errlen, "number '%.*s' too large", (int)n, e->p);
		e->p += n;
		return 0;
	}
	if (is_name_start(*e->p)) {
		const struct scn_param *p;
		size_t n = 1;

		while (is_name_char(e->p[n]))
			n++;
		p = find_param(e->s, e->p, n);
		if (!p || p->type == SCN_T_CHOICE)
			return fail(e->err, e->errlen,
				    "'%.*s' is not a size or count parameter", (int)n, e->p);
		if (parse_typed(p->type, p->value, out) < 0)
			return fail(e->err, e->errlen, "%s='%s' is not a %s",
				    p->name, p->value,
				    p->type == SCN_T_SIZE ? "size" : "count");
		e->p += n;
		return 0;
	}
	return fail(e->err, e->errlen, "unexpected '%c'", *e->p ? *e->p : '?');
}

static int eval_product(struct eval *e, uint64_t *out)
{
	uint64_t r;

	if (eval_factor(e, out) < 0)
		return -1;
	for (;;) {
		e->p = skip_space(e->p);
		if (*e->p != '*')
			return 0;
		e->p++;
		if (eval_factor(e, &r) < 0)
			return -1;
		if (r && *out > SIZE_LIMIT / r)
			return fail(e->err, e->errlen, "overflows 2^62");
		*out *= r;
	}
}

static int eval_sum(struct eval *e, uint64_t *out)
{
	uint64_t r;

	if (eval_product(e, out) < 0)
		return -1;
	for (;;) {
		e->p = skip_space(e->p);
		if (*e->p != '+')
			return 0;
		e->p++;
		if (eval_product(e, &r) < 0)
			return -1;
		if (*out > SIZE_LIMIT - r)
			return fail(e->err, e->errlen, "overflows 2^62");
		*out += r;
	}
}

int scn_eval_use(const struct scenario *s, const char *expr, uint64_t *out,
		 char *err, size_t errlen)
{
	char msg[256];
	struct eval e = { s, expr, msg, sizeof(msg) };

	if (eval_sum(&e, out) < 0 ||
	    (*skip_space(e.p) && fail(msg, sizeof(msg), "unexpected '%c'", *skip_space(e.p))))
		return fail(err, errlen,
			    "bad use expression '%s': %s (valid: parameter names, whole numbers, * + ( ), e.g. WRITERS*WRITE_SIZE)",
			    expr, msg);
	return 0;
}

/* --- the file -------------------------------------------------------- */

struct parser {
	struct scenario *s;
	unsigned int line;
	int in_header;
	/* the open header field's text, which "#   more text" continues, or NULL */
	char *open_text;
	const char *open_name;
	char *err;
	size_t errlen;
};

static int line_fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int line_fail(struct parser *ps, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail(ps->err, ps->errlen, "%s.scn line %u: %s", ps->s->name,
		    ps->line, msg);
}

static int append_text(char *dst, const char *text)
{
	size_t have = strlen(dst), n = strlen(text);

	if (have + n + 2 > SCN_TEXT_MAX)
		return -1;
	if (have)
		dst[have++] = ' ';
	memcpy(dst + have, text, n + 1);
	return 0;
}

/* "# Preset: NAME KEY=VALUE ...": checked once the parameters are read */
static int preset_line(struct parser *ps, const char *text)
{
	struct scenario *s = ps->s;
	struct scn_preset *p;
	size_t n = strcspn(text, " \t");

	if (s->npresets == SCN_PRESETS_MAX)
		return line_fail(ps, "more than %d presets", SCN_PRESETS_MAX);
	p = &s->presets[s->npresets];
	if (!n || !isalpha((unsigned char)text[0]) ||
	    strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") < n ||
	    copy_n(p->name, sizeof(p->name), text, n) < 0)
		return line_fail(ps, "bad preset name '%.*s' (valid: a name, then KEY=VALUE words)",
				 (int)n, text);
	if (copy_str(p->words, sizeof(p->words), skip_space(text + n)) < 0)
		return line_fail(ps, "preset %s too long", p->name);
	p->line = ps->line;
	s->npresets++;
	return 0;
}

#define NAME_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

/* Whether s[0..n) is a name: letters, digits, '-' or '_', at least one. */
static int is_word(const char *s, size_t n)
{
	return n && strspn(s, NAME_CHARS) >= n;
}

/* "fs=NAME" at the start of text: the name into fs, *rest after it; -1 if not. */
static int fs_word(const char *text, char *fs, size_t size, const char **rest)
{
	size_t n;

	if (strncmp(text, "fs=", 3))
		return -1;
	n = strcspn(text + 3, " \t");
	if (!is_word(text + 3, n) || copy_n(fs, size, text + 3, n) < 0)
		return -1;
	*rest = skip_space(text + 3 + n);
	return 0;
}

#define PICTURE_VALID	"waits.task.COMM[.reason.REASON] mode=MODE, e.g. waits.task.rl-dd.reason.dirty mode=2012-patched"

/* "# Picture: waits.task.COMM[.reason.REASON] mode=MODE" */
static int picture_line(struct parser *ps, const char *text)
{
	struct scn_picture *p = &ps->s->picture, got;
	size_t n = strcspn(text, " \t");
	const char *end = text + n, *comm = text + 11, *mode = skip_space(end), *dot;
	const char *reason = end;

	if (p->metric[0])
		return line_fail(ps, "a second Picture line (valid: one a scenario; the first is line %u)",
				 p->line);
	memset(&got, 0, sizeof(got));
	if (n <= 11 || strncmp(text, "waits.task.", 11))
		goto bad;
	dot = strstr(comm, ".reason.");
	if (dot && dot < end)
		reason = dot + 8;
	else
		dot = end;
	if (!is_word(comm, (size_t)(dot - comm)) ||
	    (dot != end && !is_word(reason, (size_t)(end - reason))) ||
	    strncmp(mode, "mode=", 5) || !is_word(mode + 5, strlen(mode + 5)) ||
	    copy_n(got.metric, sizeof(got.metric), text, n) < 0 ||
	    copy_n(got.task, sizeof(got.task), comm, (size_t)(dot - comm)) < 0 ||
	    copy_n(got.reason, sizeof(got.reason), reason, (size_t)(end - reason)) < 0 ||
	    copy_str(got.mode, sizeof(got.mode), mode + 5) < 0)
		goto bad;
	got.line = ps->line;
	*p = got;
	return 0;
bad:
	return line_fail(ps, "bad Picture '%s' (valid: " PICTURE_VALID ")", text);
}

/* A whole number of microseconds, s[0..n), at most SCN_THREAD_WAIT_USEC_MAX. */
static int parse_usec(const char *s, size_t n, long *out)
{
	char num[24];
	uint64_t v;

	if (!n || strspn(s, "0123456789") < n || copy_n(num, sizeof(num), s, n) < 0 ||
	    !rl_parse_u64(num, &v) || v > (uint64_t)SCN_THREAD_WAIT_USEC_MAX)
		return -1;
	*out = (long)v;
	return 0;
}

#define THREAD_WAITS_VALID	"fs=FS, then the usec_delayed values the thread quotes, whole numbers of microseconds between spaces, e.g. fs=ext4 10000 8000 2000"

/* "# Thread-waits: fs=FS USEC...": every value a whole number of us */
static int thread_waits_line(struct parser *ps, const char *text)
{
	struct scenario *s = ps->s;
	struct scn_thread_waits *t;
	const struct scn_thread_waits *seen;
	char fs[SCN_NAME_MAX];
	const char *p;

	if (fs_word(text, fs, sizeof(fs), &p) < 0 || !*p)
		return line_fail(ps, "bad Thread-waits '%s' (valid: " THREAD_WAITS_VALID ")", text);
	seen = scn_thread_waits(s, fs);
	if (seen)
		return line_fail(ps, "Thread-waits of fs=%s given twice (valid: one line a filesystem; the first is line %u)",
				 fs, seen->line);
	if (s->nthread_waits == SCN_PICTURE_FS_MAX)
		return line_fail(ps, "more than %d Thread-waits lines", SCN_PICTURE_FS_MAX);
	t = &s->thread_waits[s->nthread_waits];
	memset(t, 0, sizeof(*t));
	copy_str(t->fs, sizeof(t->fs), fs);
	while (*p) {
		size_t n = strcspn(p, " \t");

		if (t->n == SCN_THREAD_WAITS_MAX)
			return line_fail(ps, "more than %d Thread-waits values for fs=%s",
					 SCN_THREAD_WAITS_MAX, fs);
		if (parse_usec(p, n, &t->usec[t->n]) < 0)
			return line_fail(ps, "bad Thread-waits value '%.*s' for fs=%s (valid: a whole number of microseconds, 0 to %ld)",
					 (int)n, p, fs, SCN_THREAD_WAIT_USEC_MAX);
		t->n++;
		p = skip_space(p + n);
	}
	t->line = ps->line;
	s->nthread_waits++;
	return 0;
}

/* "# Lacks: fs=FS TEXT": its text continues on the lines below */
static int lacks_line(struct parser *ps, const char *text)
{
	struct scenario *s = ps->s;
	struct scn_lacks *l;
	char fs[SCN_NAME_MAX];
	const char *p;
	size_t i;

	if (fs_word(text, fs, sizeof(fs), &p) < 0 || !*p)
		return line_fail(ps, "bad Lacks '%s' (valid: fs=FS, then what the lab lacks for that filesystem's check, continued on indented lines)",
				 text);
	for (i = 0; i < s->nlacks; i++)
		if (!strcmp(s->lacks[i].fs, fs))
			return line_fail(ps, "Lacks of fs=%s given twice (valid: one a filesystem; the first is line %u)",
					 fs, s->lacks[i].line);
	if (s->nlacks == SCN_PICTURE_FS_MAX)
		return line_fail(ps, "more than %d Lacks lines", SCN_PICTURE_FS_MAX);
	l = &s->lacks[s->nlacks++];
	memset(l, 0, sizeof(*l));
	copy_str(l->fs, sizeof(l->fs), fs);
	l->line = ps->line;
	ps->open_text = l->text;
	ps->open_name = "Lacks";
	return append_text(l->text, p) < 0 ? line_fail(ps, "Lacks text too long") : 0;
}

/* A header line: "# Field: text", a continuation "#   text", or other. */
static int header_line(struct parser *ps, const char *l)
{
	struct scenario *s = ps->s;
	const char *rest = l + 1;
	char text[SCN_TEXT_MAX];
	size_t n;
	int i;

	if (ps->line == 1) {
		if (copy_str(s->title, sizeof(s->title), skip_space(rest)) < 0)
			return line_fail(ps, "title too long");
		return 0;
	}
	if (rest[0] == ' ' && is_name_start(rest[1]) && rest[1] != '_') {
		/* a field's name: letters, and '-' between words (Thread-waits) */
		n = strspn(rest + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-");
		if (rest[1 + n] == ':') {
			const char *body = skip_space(rest + 2 + n);

			snprintf(text, sizeof(text), "%s", body);
			trim_end(text);
			ps->open_text = NULL;
			if (n == 6 && !strncmp(rest + 1, "Preset", 6))
				return preset_line(ps, text);
			if (n == 7 && !strncmp(rest + 1, "Picture", 7))
				return picture_line(ps, text);
			if (n == 12 && !strncmp(rest + 1, "Thread-waits", 12))
				return thread_waits_line(ps, text);
			if (n == 5 && !strncmp(rest + 1, "Lacks", 5))
				return lacks_line(ps, text);
			if (n == 5 && !strncmp(rest + 1, "Check", 5)) {
				struct scn_check *c;

				if (s->nchecks == SCN_CHECKS_MAX)
					return line_fail(ps, "more than %d checks", SCN_CHECKS_MAX);
				c = &s->checks[s->nchecks++];
				if (copy_n(c->text, sizeof(c->text), text, strlen(text)) < 0)
					return line_fail(ps, "check too long");
				c->line = ps->line;
				return 0;
			}
			for (i = 0; i < SCN_NFIELDS; i++)
				if (strlen(field_names[i]) == n &&
				    !strncmp(rest + 1, field_names[i], n)) {
					ps->open_text = s->field[i];
					ps->open_name = field_names[i];
				}
			if (ps->open_text && append_text(ps->open_text, text) < 0)
				return line_fail(ps, "%s text too long", ps->open_name);
			return 0;
		}
	}
	/* "#   more text" continues the open field; anything else ends it */
	if (ps->open_text && rest[0] == ' ' && (rest[1] == ' ' || rest[1] == '\t') &&
	    *skip_space(rest)) {
		snprintf(text, sizeof(text), "%s", skip_space(rest));
		trim_end(text);
		if (append_text(ps->open_text, text) < 0)
			return line_fail(ps, "%s text too long", ps->open_name);
		return 0;
	}
	ps->open_text = NULL;
	return 0;
}

/* "FS:PROFILE[,FS:PROFILE...]", each name letters, digits, '-' or '_' */
static int fs_profile_list(const char *v)
{
	int names = 0;
	size_t n;

	for (;;) {
		n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");
		if (!n)
			return 0;
		v += n;
		if (++names % 2) {
			if (*v++ != ':')
				return 0;
		} else if (*v == ',') {
			v++;
		} else {
			return *v == '\0';
		}
	}
}

/*
 * The value of setting_names[i], checked: SCN_MEM a size, SCN_TIMEOUT
 * seconds, SCN_FS_PROFILE a list of FS:PROFILE.
 */
static int check_setting(size_t i, const char *value, char *err, size_t errlen)
{
	uint64_t v;

	if (i == 0 && parse_typed(SCN_T_SIZE, value, &v) < 0)
		return fail(err, errlen, "bad SCN_MEM '%s' (valid: a size; %s)", value, RL_SIZE_FORMS);
	if (i == 3 && (parse_typed(SCN_T_COUNT, value, &v) < 0 || !v))
		return fail(err, errlen, "bad SCN_TIMEOUT '%s' (valid: seconds, 1 or more)", value);
	if (i == 6 && !fs_profile_list(value))
		return fail(err, errlen,
			    "bad SCN_FS_PROFILE '%s' (valid: FS:PROFILE entries separated by ',', e.g. vfat:usb-stick,xfs:hdd)",
			    value);
	return 0;
}

static int setting_line(struct parser *ps, const char *name, const char *value)
{
	struct scenario *s = ps->s;
	char *slot[] = { s->mem, s->profile, s->swap, s->timeout, s->disk_use, s->mem_use,
			 s->fs_profile };
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(setting_names) / sizeof(setting_names[0]); i++) {
		if (strcmp(name + 4, setting_names[i]))
			continue;
		copy_str(slot[i], SCN_VALUE_MAX, value);
		return check_setting(i, value, msg, sizeof(msg)) < 0 ? line_fail(ps, "%s", msg) : 0;
	}
	return line_fail(ps, "unknown setting '%s' (valid: %s)", name, SETTINGS_VALID);
}

/*
 * characters a value in the scenario file may have (a --set value is
 * checked by its parameter's type: scn_set)
 */
static int value_char(int c, int setting)
{
	if (isalnum(c) || strchr("._:+,/-", c))
		return 1;
	return setting && strchr("*()", c);
}

static int code_line(struct parser *ps, const char *l)
{
	struct scenario *s = ps->s;
	char name[SCN_NAME_MAX], value[SCN_VALUE_MAX], msg[256];
	const char *p = l, *v, *after;
	struct scn_param *par;
	size_t n;
	int setting;

	if (!is_name_start(*p))
		return 0;	/* code the guest runs: not ours to read */
	while (is_name_char(*p))
		p++;
	if (*p != '=')
		return 0;
	if (copy_n(name, sizeof(name), l, (size_t)(p - l)) < 0)
		return line_fail(ps, "name too long");
	setting = !strncmp(name, "SCN_", 4);
	v = p + 1;
	n = 0;
	while (v[n] && value_char((unsigned char)v[n], setting))
		n++;
	after = skip_space(v + n);
	if (*after && *after != '#')
		return line_fail(ps, "%s: value '%.*s' has a character a scenario value may not have (valid: letters, digits and . _ : + , / -%s)",
				 name, (int)(strcspn(v, " \t#")), v,
				 setting ? " * ( )" : "");
	if (copy_n(value, sizeof(value), v, n) < 0)
		return line_fail(ps, "%s: value too long", name);
	if (setting)
		return setting_line(ps, name, value);
	if (scn_param(s, name))
		return line_fail(ps, "parameter %s given twice", name);
	if (s->nparams == SCN_PARAMS_MAX)
		return line_fail(ps, "more than %d parameters", SCN_PARAMS_MAX);
	if (*after != '#')
		return line_fail(ps, "parameter %s has no type (valid: %s after the value)",
				 name, TYPES_VALID);
	par = &s->params[s->nparams];
	memset(par, 0, sizeof(*par));
	copy_str(par->name, sizeof(par->name), name);
	copy_str(par->value, sizeof(par->value), value);
	if (parse_type(par, skip_space(after + 1), msg, sizeof(msg)) < 0)
		return line_fail(ps, "%s", msg);
	if (scn_check_value(par, value, msg, sizeof(msg)) < 0)
		return line_fail(ps, "default %s", msg);
	s->nparams++;
	return 0;
}

/* Every preset applies to a copy of s without an error. */
static int check_presets(const struct scenario *s, char *err, size_t errlen)
{
	struct scenario *copy;
	char msg[1024];
	size_t i;
	int rc = 0;

	if (!s->npresets)
		return 0;
	copy = malloc(sizeof(*copy));
	if (!copy)
		return fail(err, errlen, "out of memory");
	for (i = 0; i < s->npresets && !rc; i++) {
		memcpy(copy, s, sizeof(*copy));
		if (scn_apply_preset(copy, s->presets[i].name, msg, sizeof(msg)) < 0)
			rc = fail(err, errlen, "%s.scn line %u: preset %s: %s", s->name,
				  s->presets[i].line, s->presets[i].name, msg);
	}
	free(copy);
	return rc;
}

int scn_parse(const char *name, const char *text, struct scenario *s,
	      char *err, size_t errlen)
{
	struct parser ps = { s, 0, 1, NULL, NULL, err, errlen };
	char line[1024];
	const char *p = text;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (copy_n(s->name, sizeof(s->name), name, strlen(name)) < 0)
		return fail(err, errlen, "scenario name '%s' too long", name);
	copy_str(s->title, sizeof(s->title), name);
	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *l;

		ps.line++;
		if (copy_n(line, sizeof(line), p, n) < 0)
			return line_fail(&ps, "line longer than %zu bytes", sizeof(line) - 1);
		p += n + (p[n] == '\n');
		l = skip_space(line);
		if (ps.in_header && *l && *l != '#')
			ps.in_header = 0;	/* the first line of code ends it */
		if (ps.in_header) {
			if (*l == '#' && l == line && header_line(&ps, line) < 0)
				return -1;
			continue;
		}
		if (code_line(&ps, line) < 0)
			return -1;
	}
	if (s->disk_use[0] && scn_eval_use(s, s->disk_use, &v, err, errlen) < 0)
		return -1;
	if (s->mem_use[0] && scn_eval_use(s, s->mem_use, &v, err, errlen) < 0)
		return -1;
	return check_presets(s, err, errlen);
}

int scn_load(const char *path, struct scenario *s, char *err, size_t errlen)
{
	char name[SCN_NAME_MAX], *text;
	const char *base = strrchr(path, '/');
	size_t n, len;
	FILE *f;
	int rc;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".scn"))
		len -= 4;
	if (copy_n(name, sizeof(name), base, len) < 0)
		return fail(err, errlen, "scenario name of '%s' too long", path);
	f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, "cannot open scenario '%s': %s", path, strerror(errno));
	text = malloc(FILE_MAX + 1);
	if (!text) {
		fclose(f);
		return fail(err, errlen, "out of memory");
	}
	n = fread(text, 1, FILE_MAX + 1, f);
	fclose(f);
	if (n > FILE_MAX) {
		free(text);
		return fail(err, errlen, "scenario '%s' is larger than %d KiB", path, FILE_MAX / 1024);
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		free(text);
		return fail(err, errlen, "scenario '%s' holds a NUL byte", path);
	}
	rc = scn_parse(name, text, s, err, errlen);
	free(text);
	return rc;
}

int scn_set(struct scenario *s, const char *kv, char *err, size_t errlen)
{
	char names[SCN_PARAMS_MAX * SCN_NAME_MAX], msg[512];
	const char *eq = strchr(kv, '=');
	const struct scn_param *found;
	struct scn_param *p;
	size_t n;

	if (!eq || eq == kv)
		return fail(err, errlen, "bad --set '%s' (valid: KEY=VALUE)", kv);
	n = (size_t)(eq - kv);
	if (n >= 4 && !strncmp(kv, "SCN_", 4))
		return fail(err, errlen,
			    "bad --set '%s': %.*s is a scenario setting, not a parameter (use --mem, --profile or --timeout)",
			    kv, (int)n, kv);
	found = find_param(s, kv, n);
	if (!found) {
		param_names(s, names, sizeof(names));
		return fail(err, errlen, "scenario %s has no parameter '%.*s' (valid: %s)",
			    s->name, (int)n, kv, names);
	}
	p = &s->params[found - s->params];
	if (scn_check_value(p, eq + 1, msg, sizeof(msg)) < 0)
		return fail(err, errlen, "scenario %s: %s", s->name, msg);
	if (copy_n(p->value, sizeof(p->value), eq + 1, strlen(eq + 1)) < 0)
		return fail(err, errlen, "value of --set '%s' too long (valid: at most %zu characters)",
			    kv, sizeof(p->value) - 1);
	p->was_set = 1;
	return 0;
}

/* A preset's SCN_ word: one of the settings a run may take from a preset. */
static int preset_setting(struct scenario *s, const char *kv, char *err,
			  size_t errlen)
{
	/* the first four of setting_names, in its order (check_setting's indexes) */
	static const char *const names[] = { "SCN_MEM", "SCN_PROFILE", "SCN_SWAP", "SCN_TIMEOUT" };
	char *slot[] = { s->mem, s->profile, s->swap, s->timeout };
	const char *v = strchr(kv, '=') + 1;
	size_t i, n = (size_t)(v - 1 - kv);

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != n || strncmp(kv, names[i], n))
			continue;
		if (check_setting(i, v, err, errlen) < 0)
			return -1;
		if ((i == 1 || i == 2) && !*v)
			return fail(err, errlen, "empty %s (valid: a profile name)", names[i]);
		return copy_str(slot[i], SCN_VALUE_MAX, v) < 0 ?
			fail(err, errlen, "%s value too long", names[i]) : 0;
	}
	return fail(err, errlen, "'%.*s' is not a setting a preset may give (valid: SCN_MEM SCN_PROFILE SCN_SWAP SCN_TIMEOUT, or a parameter)",
		    (int)n, kv);
}

int scn_apply_preset(struct scenario *s, const char *name, char *err,
		     size_t errlen)
{
	char words[SCN_VALUE_MAX * 4], names[SCN_PRESETS_MAX * (SCN_NAME_MAX + 1)] = "";
	const struct scn_preset *p = NULL;
	char *w, *save = NULL;
	size_t i;

	for (i = 0; i < s->npresets; i++) {
		if (!strcmp(s->presets[i].name, name))
			p = &s->presets[i];
		if (strlen(names) + strlen(s->presets[i].name) + 2 < sizeof(names)) {
			strcat(names, i ? " " : "");
			strcat(names, s->presets[i].name);
		}
	}
	if (!p)
		return fail(err, errlen, "scenario %s has no preset '%s' (valid: %s)", s->name,
			    name, s->npresets ? names : "none");
	copy_str(words, sizeof(words), p->words);
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strchr(w, '=') || w[0] == '=')
			return fail(err, errlen, "bad word '%s' (valid: KEY=VALUE)", w);
		if (!strncmp(w, "SCN_", 4) ? preset_setting(s, w, err, errlen) < 0 :
					      scn_set(s, w, err, errlen) < 0)
			return -1;
	}
	return copy_str(s->preset, sizeof(s->preset), name) < 0 ?
		fail(err, errlen, "preset name too long") : 0;
}
