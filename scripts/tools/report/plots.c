// SPDX-License-Identifier: GPL-2.0
/*
 * The report's plots: for each scenario and mode a histogram and a CDF of
 * reclaim wait durations, writer throughput over time and waits per
 * second.  Each plot is a gnuplot script NAME.gp and its data files in the
 * plots folder, drawn by gnuplot into NAME.svg and NAME.png; a reader can
 * change a script and draw it again.  Every string in a script (titles,
 * file names) is a gnuplot string literal made by gnuplot_quote(): a run's
 * names and values are data, never gnuplot commands.
 */
#include "report/plots.h"
#include "report/model.h"
#include "lib/run-folder.h"
#include "lib/cli.h"
#include "lib/guest-read.h"
#include "lib/values.h"
#include "summarize/tracestat.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *gnuplot_quote(char *buf, size_t size, const char *s)
{
	size_t n = 0, k;

	if (size < 3) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	buf[n++] = '\'';
	/* room kept for the closing quote and the NUL */
	for (k = 0; s[k] && k < GNUPLOT_STRING_MAX && n + 3 <= size; k++) {
		unsigned char c = (unsigned char)s[k];

		if (c == '\'') {
			if (n + 4 > size)
				break;
			buf[n++] = '\'';
			buf[n++] = '\'';
		} else {
			/* a newline ends a command; ` is command substitution */
			buf[n++] = c < 0x20 || c >= 0x7f || c == '`' ? '?' : (char)c;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* The text of fmt as one gnuplot string literal, written to f. */
static void gp_str(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void gp_str(FILE *f, const char *fmt, ...)
{
	char text[GNUPLOT_STRING_MAX + 1], quoted[GNUPLOT_QUOTED_SIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fputs(gnuplot_quote(quoted, sizeof(quoted), text), f);
}

/* Whether a name can be part of a file name in plots/: no '/' */
static int file_name_ok(const char *name)
{
	return *name && !strchr(name, '/');
}

static FILE *open_in(const struct report_model *r, const char *name, char **path)
{
	size_t n = strlen(r->out_dir) + strlen(name) + 16;
	char err[1024];
	FILE *f;

	*path = xmalloc(n);
	snprintf(*path, n, "%s/plots/%s", r->out_dir, name);
	/* a new file: a link planted in plots/ is not written through */
	f = cli_create(*path, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "rl-report: %s\n", err);
		exit(1);
	}
	return f;
}

/* awk's print of a number: whole numbers as such, the rest %.6g */
static void num(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v == 0 ? 0.0 : v);
	else
		fprintf(f, "%.6g", v);
}

static size_t fs_color(const struct report_model *r, const char *fs)
{
	size_t i;

	for (i = 0; i < r->fs.n; i++)
		if (!strcmp(r->fs.v[i], fs))
			return i + 1;
	return 8;
}

static int ok_run(const struct model_run *run, const char *scn, const char *fs,
		  const char *mode)
{
	return !strcmp(run->scenario, scn) && !strcmp(run->fs, fs) &&
	       !strcmp(run->mode, mode) && !strcmp(run->status, "ok");
}

static int file_nonempty(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && sb.st_size > 0;
}

/* Runs gnuplot in the plots folder on a terminal, an output and NAME.gp. */
static int gnuplot(const struct report_model *r, const char *name, const char *terminal,
		   const char *ext, FILE *notes)
{
	size_t n = strlen(r->out_dir) + 8;
	char *dir = xmalloc(n);
	FILE *p;
	int rc, cwd = open(".", O_RDONLY | O_DIRECTORY);

	snprintf(dir, n, "%s/plots", r->out_dir);
	if (cwd < 0 || chdir(dir) < 0) {
		if (cwd >= 0)
			close(cwd);
		free(dir);
		return -1;
	}
	p = popen("gnuplot 2>>gnuplot.err", "w");
	if (p) {
		fprintf(p, "set terminal %s\nset output ", terminal);
		gp_str(p, "%s.%s", name, ext);
		fprintf(p, "\nload ");
		gp_str(p, "%s.gp", name);
		fprintf(p, "\n");
		rc = pclose(p);
	} else {
		rc = -1;
	}
	if (fchdir(cwd) < 0)
		rc = -1;
	close(cwd);
	free(dir);
	if (rc && notes)
		fprintf(notes, "gnuplot failed for %s.%s\n", name, ext);
	return rc ? -1 : 0;
}

/* NAME.svg and NAME.png from NAME.gp; 0 if both were drawn */
static int render(const struct report_model *r, const char *name, int w, int h, FILE *notes)
{
	char term[256], *svg, *png;
	int ok;

	if (!r->o->png_term)
		return -1;
	svg = xmalloc(strlen(r->out_dir) + strlen(name) + 16);
	png = xmalloc(strlen(r->out_dir) + strlen(name) + 16);
	sprintf(svg, "%s/plots/%s.svg", r->out_dir, name);
	sprintf(png, "%s/plots/%s.png", r->out_dir, name);
	/* gnuplot's set output follows a link: what was there goes first */
	unlink(svg);
	unlink(png);
	snprintf(term, sizeof(term), "svg size %d,%d dynamic noenhanced font 'Sans,11' background rgb 'white'", w, h);
	ok = !gnuplot(r, name, term, "svg", notes);
	snprintf(term, sizeof(term), "%s size %d,%d noenhanced font 'Sans,10'", r->o->png_term, w, h);
	ok = ok && !gnuplot(r, name, term, "png", notes);
	ok = ok && file_nonempty(svg) && file_nonempty(png);
	if (!ok) {
		unlink(svg);
		unlink(png);
	}
	free(svg);
	free(png);
	return ok ? 0 : -1;
}

/* --- histogram ------------------------------------------------------------ */

#define MAX_BUCKETS 64

static int plot_hist(struct report_model *r, struct model_scenario *s, const char *m, FILE *notes)
{
	char name[256], file[300], *path, lab[MAX_BUCKETS][64];
	double frac[16][MAX_BUCKETS];
	size_t cols = 0, nb = 0, i, j, k, colfs[16];
	char titles[16][128];
	FILE *f;

	for (i = 0; i < r->fs.n && cols < 16; i++) {
		double c[MAX_BUCKETS] = { 0 }, t = 0;
		size_t files = 0, nk = 0;

		for (j = 0; j < r->nruns; j++) {
			char *text, *line, *next;

			if (!ok_run(&r->runs[j], s->name, r->fs.v[i], m))
				continue;
			text = model_run_file(&r->runs[j], RL_DERIVED_DIR "/waits-hist.tsv");
			if (!text || !*text) {
				free(text);
				continue;
			}
			files++;
			k = 0;
			next = text;
			next_line(&next);	/* the header */
			while ((line = next_line(&next))) {
				char lo[32], hi[32];
				double cnt;

				if (sscanf(line, "%31s %31s %lf", lo, hi, &cnt) != 3 || k >= MAX_BUCKETS)
					continue;
				snprintf(lab[k], sizeof(lab[k]), "%s%s%s", lo,
					 strcmp(hi, "inf") ? "-" : "+", strcmp(hi, "inf") ? hi : "");
				c[k] += cnt;
				t += cnt;
				k++;
				nk = k > nk ? k : nk;
			}
			free(text);
		}
		if (!files || !t)
			continue;
		snprintf(titles[cols], sizeof(titles[cols]), "%s (%.0f waits, %zu runs)", r->fs.v[i], t, files);
		for (k = 0; k < nk; k++)
			frac[cols][k] = c[k] / t;
		nb = nk > nb ? nk : nb;
		colfs[cols++] = i;
	}
	if (!cols)
		return -1;
	snprintf(name, sizeof(name), "%s.%s.hist", s->name, m);
	snprintf(file, sizeof(file), "%s.dat", name);
	f = open_in(r, file, &path);
	fprintf(f, "bucket");
	for (i = 0; i < cols; i++)
		fprintf(f, "\t%s", titles[i]);
	fprintf(f, "\n");
	for (k = 0; k < nb; k++) {
		fprintf(f, "%s", lab[k]);
		for (i = 0; i < cols; i++) {
			fprintf(f, "\t");
			num(f, frac[i][k]);
		}
		fprintf(f, "\n");
	}
	fclose(f);
	free(path);
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set title ");
	gp_str(f, "%s, %s: reclaim wait durations (usec_delayed), share of waits per bucket", s->name, m);
	fprintf(f, "\n");
	fprintf(f, "set xlabel 'wait duration, ms'\nset ylabel 'share of waits'\nset yrange [0:*]\n");
	fprintf(f, "set datafile separator tab\nset style data histograms\nset style histogram clustered gap 1\n");
	fprintf(f, "set style fill solid 0.8 border -1\nset key top left\nset grid ytics\nplot ");
	for (i = 0; i < cols; i++) {
		fprintf(f, "%s", i ? ", " : "");
		gp_str(f, "%s.dat", name);
		fprintf(f, " using %zu:xtic(1) title columnheader(%zu) lc %zu",
			i + 2, i + 2, fs_color(r, r->fs.v[colfs[i]]));
	}
	fprintf(f, "\n");
	fclose(f);
	free(path);
	return render(r, name, 900, 450, notes);
}

/* --- CDF ------------------------------------------------------------------ */

struct sample {
	double usec, count;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return (x->usec > y->usec) - (x->usec < y->usec);
}

/* One wait duration and how many lasted it, into *v (grown as needed). */
static void add_sample(struct sample **v, size_t *n, size_t *cap, double usec, double count)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*v = realloc(*v, *cap * sizeof(**v));
		if (!*v)
			exit(1);
	}
	(*v)[*n].usec = usec;
	(*v)[(*n)++].count = count;
}

/*
 * The samples as CDF steps into plots/file, from (0, 0), run on to edge_ms
 * when that is past the longest (0: no edge); returns how many waits they
 * are, *steps how many distinct durations (rows 1 to *steps of the file).
 * v is sorted here.
 */
static double write_cdf_steps(struct report_model *r, const char *file, struct sample *v,
			      size_t nv, int edge_ms, size_t *steps)
{
	double total = 0, cum = 0;
	char *path;
	size_t j;
	FILE *f;

	qsort(v, nv, sizeof(*v), cmp_sample);
	for (j = 0; j < nv; j++)
		total += v[j].count;
	f = open_in(r, file, &path);
	fprintf(f, "0\t0\n");
	for (j = 0; j < nv; j++) {
		cum += v[j].count;
		if (j + 1 < nv && v[j + 1].usec == v[j].usec)
			continue;
		num(f, v[j].usec / 1000);
		fprintf(f, "\t");
		num(f, cum / total);
		fprintf(f, "\n");
		(*steps)++;
	}
	/* the last step runs on to the edge, where the longest wait is short */
	if (edge_ms && nv && v[nv - 1].usec / 1000 < edge_ms)
		fprintf(f, "%d\t1\n", edge_ms);
	fclose(f);
	free(path);
	return total;
}

static int plot_cdf(struct report_model *r, struct model_scenario *s, const char *m, FILE *notes)
{
	char name[256], file[400], *path, *plots = NULL;
	size_t i, j, nplots = 0, plen = 0;
	FILE *f, *pl = open_memstream(&plots, &plen);

	snprintf(name, sizeof(name), "%s.%s.cdf", s->name, m);
	for (i = 0; i < r->fs.n; i++) {
		struct sample *v = NULL;
		size_t nv = 0, cap = 0, steps = 0;
		double total;

		for (j = 0; j < r->nruns; j++) {
			double n, p = 0, frac;
			char *text, *line, *next;
			long usec;

			if (!ok_run(&r->runs[j], s->name, r->fs.v[i], m))
				continue;
			n = model_run_metric(&r->runs[j], "waits.events");
			text = model_run_file(&r->runs[j], RL_DERIVED_DIR "/waits-cdf.tsv");
			if (isnan(n) || !text || !*text) {
				free(text);
				continue;
			}
			next = text;
			next_line(&next);	/* the header */
			while ((line = next_line(&next))) {
				if (sscanf(line, "%ld %lf", &usec, &frac) != 2)
					continue;
				{
					double c = floor((frac - p) * n + 0.5);

					p = frac;
					if (c > 0)
						add_sample(&v, &nv, &cap, (double)usec, c);
				}
			}
			free(text);
		}
		if (!nv) {
			free(v);
			continue;
		}
		snprintf(file, sizeof(file), "%s.%s.dat", name, r->fs.v[i]);
		total = write_cdf_steps(r, file, v, nv, 0, &steps);
		fprintf(pl, "%s", nplots++ ? ", " : "");
		gp_str(pl, "%s", file);
		fprintf(pl, " using 1:2 with steps lw 2 lc %zu title ", fs_color(r, r->fs.v[i]));
		gp_str(pl, "%s (%.0f waits)", r->fs.v[i], total);
		free(v);
	}
	fclose(pl);
	if (!nplots) {
		free(plots);
		return -1;
	}
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set title ");
	gp_str(f, "%s, %s: CDF of reclaim wait durations (usec_delayed), all ok runs", s->name, m);
	fprintf(f, "\n");
	fprintf(f, "set xlabel 'wait duration, ms'\nset ylabel 'share of waits at most this long'\n");
	fprintf(f, "set yrange [0:1.02]\nset xrange [0:*]\nset key bottom right\nset grid\nplot %s\n", plots);
	fclose(f);
	free(path);
	free(plots);
	return render(r, name, 900, 450, notes);
}

/* --- throughput ----------------------------------------------------------- */

/* the writers of the ok runs: NAME of every NAME.progress, sorted */
static void writers(const struct report_model *r, const struct model_scenario *s, const char *fs,
		    const char *m, struct strv *out)
{
	size_t j;

	for (j = 0; j < r->nruns; j++) {
		struct dirent **list;
		char *dir;
		int n, k;

		if (!ok_run(&r->runs[j], s->name, fs, m))
			continue;
		dir = xmalloc(strlen(r->runs[j].dir) + sizeof(RL_GUEST_DIR) + 1);
		sprintf(dir, "%s/" RL_GUEST_DIR, r->runs[j].dir);
		n = scandir(dir, &list, NULL, alphasort);
		free(dir);
		for (k = 0; k < n; k++) {
			size_t len = strlen(list[k]->d_name);

			if (len > 9 && !strcmp(list[k]->d_name + len - 9, ".progress")) {
				list[k]->d_name[len - 9] = '\0';
				if (value_is_plain_name(list[k]->d_name))
					strv_add_unique(out, list[k]->d_name);
			}
			free(list[k]);
		}
		if (n >= 0)
			free(list);
	}
	strv_sort(out);
}

static int plot_throughput(struct report_model *r, struct model_scenario *s, const char *m, FILE *notes)
{
	char name[256], file[600], *path, *panels = NULL;
	size_t i, j, w, nfs = 0, plen = 0, rows, cols;
	FILE *f, *pf = open_memstream(&panels, &plen);

	snprintf(name, sizeof(name), "%s.%s.throughput", s->name, m);
	for (i = 0; i < r->fs.n; i++) {
		struct strv ws = { 0 };
		char *plots = NULL;
		size_t nplots = 0, ll = 0;
		FILE *lf = open_memstream(&plots, &ll);

		writers(r, s, r->fs.v[i], m, &ws);
		for (w = 0; w < ws.n; w++) {
			for (j = 0; j < r->nruns; j++) {
				const struct model_run *run = &r->runs[j];
				char *text, *line, *next, pname[300];
				double t = 0, b = 0, ts, bytes;
				int any = 0;
				FILE *d;

				if (!ok_run(run, s->name, r->fs.v[i], m))
					continue;
				snprintf(pname, sizeof(pname), "%s.progress", ws.v[w]);
				text = model_guest_file(run, pname, GUEST_MAX_TOOL_OUT);
				if (!text || !*text) {
					free(text);
					continue;
				}
				/* (t_prev, MB/s over [t_prev, t]) drawn as steps, from (0, 0) */
				snprintf(file, sizeof(file), "%s.%s.%s.dat", name, run->name, ws.v[w]);
				d = open_in(r, file, &path);
				next = text;
				while ((line = next_line(&next))) {
					if (sscanf(line, "%lf %lf", &ts, &bytes) != 2 || !(ts > t))
						continue;
					fprintf(d, "%.3f\t%.3f\n", t, (bytes - b) / (ts - t) / 1e6);
					t = ts;
					b = bytes;
					any = 1;
				}
				if (t > 0)
					fprintf(d, "%.3f\t0\n", t);
				fclose(d);
				free(path);
				free(text);
				if (!any)
					continue;
				fprintf(lf, "%s", nplots++ ? ", " : "");
				gp_str(lf, "%s", file);
				fprintf(lf, " using 1:2 with steps lw 2 lc %zu dt %ld title ", w + 1,
					run->repeat);
				gp_str(lf, "%s r%ld", ws.v[w], run->repeat);
			}
		}
		strv_free(&ws);
		fclose(lf);
		if (nplots) {
			nfs++;
			fprintf(pf, "set title ");
			gp_str(pf, "%s", r->fs.v[i]);
			fprintf(pf, "\nplot %s\n", plots);
		}
		free(plots);
	}
	fclose(pf);
	if (!nfs) {
		free(panels);
		return -1;
	}
	rows = (nfs + 1) / 2;
	cols = nfs > 1 ? 2 : 1;
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set multiplot layout %zu,%zu title ", rows, cols);
	gp_str(f, "%s, %s: writer throughput over time (MB/s; r1 solid, r2 dashed, ...)", s->name, m);
	fprintf(f, "\n");
	fprintf(f, "set xlabel 'seconds since the writer started'\nset ylabel 'MB/s'\nset yrange [0:*]\n");
	fprintf(f, "set offsets 0, 0, graph 0.1, 0\nset key outside below horizontal\nset grid\n%sunset multiplot\n", panels);
	fclose(f);
	free(path);
	free(panels);
	return render(r, name, 1000, (int)(320 * rows + 40), notes);
}

/* --- waits per second ----------------------------------------------------- */

static int plot_waits(struct report_model *r, struct model_scenario *s, const char *m, FILE *notes)
{
	char name[256], file[400], *path, *p1 = NULL, *p2 = NULL;
	size_t i, j, n1 = 0, l1 = 0, l2 = 0;
	double maxdur = -1, bin;
	int any_wait = 0;
	FILE *f, *f1, *f2;

	for (i = 0; i < r->fs.n; i++)
		for (j = 0; j < r->nruns; j++) {
			char *text;
			double t0, t1;

			if (!ok_run(&r->runs[j], s->name, r->fs.v[i], m))
				continue;
			text = model_guest_file(&r->runs[j], "workload-seconds", GUEST_MAX_SMALL);
			if (text && sscanf(text, "%lf %lf", &t0, &t1) == 2 && isfinite(t1 - t0) &&
			    t1 - t0 > maxdur)
				maxdur = t1 - t0;
			free(text);
		}
	if (maxdur < 0)
		return -1;
	bin = maxdur <= 10 ? 0.1 : maxdur <= 300 ? 1 : 10;
	snprintf(name, sizeof(name), "%s.%s.waits", s->name, m);
	f1 = open_memstream(&p1, &l1);
	f2 = open_memstream(&p2, &l2);
	for (i = 0; i < r->fs.n; i++) {
		double *c = NULL, *u = NULL;
		size_t nb = 0, nr = 0, max = 0, b;

		for (j = 0; j < r->nruns; j++) {
			char *text, *line, *next;
			double start, ev, us;

			if (!ok_run(&r->runs[j], s->name, r->fs.v[i], m))
				continue;
			text = model_run_file(&r->runs[j], RL_DERIVED_DIR "/waits-series.tsv");
			if (!text)
				continue;
			nr++;
			next = text;
			next_line(&next);	/* the header */
			while ((line = next_line(&next))) {
				/* rl-summarize bounds the series: past that, not a bin of ours */
				if (sscanf(line, "%lf %lf %lf", &start, &ev, &us) != 3 ||
				    !(start >= 0 && start <= TRACESTAT_SERIES_MAX_S))
					continue;
				b = (size_t)(start / bin + 1e-6);
				if (b >= nb) {
					size_t nn = b + 64, k;

					c = realloc(c, nn * sizeof(*c));
					u = realloc(u, nn * sizeof(*u));
					if (!c || !u)
						exit(1);
					for (k = nb; k < nn; k++)
						c[k] = u[k] = 0;
					nb = nn;
				}
				c[b] += ev;
				u[b] += us;
				any_wait |= ev > 0 || us > 0;
				if (b > max)
					max = b;
			}
			free(text);
		}
		if (!nr) {
			free(c);
			free(u);
			continue;
		}
		snprintf(file, sizeof(file), "%s.%s.dat", name, r->fs.v[i]);
		f = open_in(r, file, &path);
		for (b = 0; b <= max; b++)
			fprintf(f, "%.2f\t%.2f\t%.2f\n", b * bin, b < nb ? c[b] / nr / bin : 0,
				b < nb ? u[b] / 1000 / nr / bin : 0);
		fprintf(f, "%.2f\t0\t0\n", (max + 1) * bin);
		fclose(f);
		free(path);
		fprintf(f1, "%s", n1 ? ", " : "");
		gp_str(f1, "%s", file);
		fprintf(f1, " using 1:2 with steps lw 2 lc %zu title ", fs_color(r, r->fs.v[i]));
		gp_str(f1, "%s", r->fs.v[i]);
		fprintf(f2, "%s", n1 ? ", " : "");
		gp_str(f2, "%s", file);
		fprintf(f2, " using 1:3 with steps lw 2 lc %zu title ", fs_color(r, r->fs.v[i]));
		gp_str(f2, "%s", r->fs.v[i]);
		n1++;
		free(c);
		free(u);
	}
	fclose(f1);
	fclose(f2);
	if (!n1) {
		free(p1);
		free(p2);
		return -1;
	}
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set multiplot layout 2,1 title ");
	gp_str(f, "%s, %s: reclaim waits over the workload (mean of the ok runs, %g s bins)",
	       s->name, m, bin);
	fprintf(f, "\n");
	/* no wait at all: a fixed axis (gnuplot warns of an empty range) */
	fprintf(f, "set xlabel 'seconds since the workload started'\nset key top right\nset grid\nset yrange [0:%s]\n",
		any_wait ? "*" : "1");
	fprintf(f, "set offsets 0, 0, graph 0.1, 0\nset ylabel 'waits per second'\nplot %s\n", p1);
	fprintf(f, "set ylabel 'stalled ms per second'\nplot %s\nunset multiplot\n", p2);
	fclose(f);
	free(path);
	free(p1);
	free(p2);
	return render(r, name, 900, 640, notes);
}

/* --- completions over time ------------------------------------------------- */

/* Seconds of the workload shown: enough for many completions, few enough to see each. */
#define COMPLETION_WINDOW_S 2.0

/*
 * Folios ended per 10 ms, one panel a filesystem, from the first ok run of
 * each: bursts are what tell the filesystems apart, and a mean over runs
 * would smooth them away.  The window starts a quarter into the run, past
 * the start when the memory limit is not yet reached.
 */
static int plot_completions(struct report_model *r, struct model_scenario *s, const char *m, FILE *notes)
{
	char name[256], file[400], *path, *plots = NULL;
	size_t i, j, npanels = 0, plen = 0;
	double from = -1;
	int any_folio = 0;
	FILE *f, *pf;

	snprintf(name, sizeof(name), "%s.%s.completions", s->name, m);
	pf = open_memstream(&plots, &plen);
	for (i = 0; i < r->fs.n; i++)
		for (j = 0; j < r->nruns; j++) {
			char *text, *line, *next, *last;
			double t;

			if (!ok_run(&r->runs[j], s->name, r->fs.v[i], m))
				continue;
			text = model_run_file(&r->runs[j], RL_DERIVED_DIR "/completions-series.tsv");
			if (!text)
				continue;
			/* the last bin's start: the run's length */
			while (*text && text[strlen(text) - 1] == '\n')
				text[strlen(text) - 1] = '\0';
			last = strrchr(text, '\n');
			if (from < 0)
				from = last && sscanf(last + 1, "%lf", &t) == 1 ? floor(t / 4) : 0;
			snprintf(file, sizeof(file), "%s.%s.dat", name, r->fs.v[i]);
			f = open_in(r, file, &path);
			next = text;
			next_line(&next);	/* the header */
			while ((line = next_line(&next))) {
				double folios = 0;

				if (sscanf(line, "%lf %lf", &t, &folios) < 1 || t < from ||
				    t >= from + COMPLETION_WINDOW_S)
					continue;
				fprintf(f, "%s\n", line);
				any_folio |= folios > 0;
			}
			fclose(f);
			free(path);
			free(text);
			fprintf(pf, "set title ");
			gp_str(pf, "%s", r->fs.v[i]);
			fprintf(pf, "\nplot ");
			gp_str(pf, "%s", file);
			fprintf(pf, " using 1:2 with impulses lw 2 lc %zu notitle\n",
				fs_color(r, r->fs.v[i]));
			npanels++;
			break;
		}
	fclose(pf);
	if (!npanels) {
		free(plots);
		return -1;
	}
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set multiplot layout %zu,1 title ", npanels);
	gp_str(f, "%s, %s: folios whose writeback ended, per 10 ms (seconds %g-%g of the first ok run)",
	       s->name, m, from, from + COMPLETION_WINDOW_S);
	fprintf(f, "\n");
	/* none in the window: a fixed axis (gnuplot warns of an empty range) */
	fprintf(f, "set xlabel 'seconds since the workload started'\nset ylabel 'folios'\nset grid\nset yrange [0:%s]\nset xrange [%g:%g]\n%sunset multiplot\n",
		any_folio ? "*" : "1", from, from + COMPLETION_WINDOW_S, plots);
	fclose(f);
	free(path);
	free(plots);
	return render(r, name, 900, 200 + 160 * (int)npanels, notes);
}

/* --- the thread's picture ------------------------------------------------- */

/* to just above the thread's timeout: a full wait is a step at its end */
#define PICTURE_X_MAX_MS	110
#define PICTURE_PANELS_A_ROW	4

static const struct model_run *run_named(const struct report_model *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nruns; i++)
		if (!strcmp(r->runs[i].name, name))
			return &r->runs[i];
	return NULL;
}

/*
 * The waits of the picture's task (and reason) in the counted runs of pf,
 * pooled from each run's derived/waits-by-task.tsv, into plots/file;
 * returns how many (0: none, and no file).
 */
static double picture_lab_waits(struct report_model *r, const struct picture *p,
				const struct picture_fs *pf, const char *file)
{
	struct sample *v = NULL;
	size_t nv = 0, cap = 0, i, steps = 0;
	double total = 0;

	for (i = 0; i < pf->counted.n; i++) {
		const struct model_run *run = run_named(r, pf->counted.v[i]);
		char *text = run ? model_run_file(run, RL_DERIVED_DIR "/waits-by-task.tsv") : NULL;
		char *line, *next = text;

		if (text)
			next_line(&next);	/* the header */
		while (text && (line = next_line(&next))) {
			/* task, reason, usec_delayed, waits: a comm may hold a space */
			char *reason = strchr(line, '\t'), *usec = reason ? strchr(reason + 1, '\t') : NULL;
			double us, count;

			if (!usec)
				continue;
			*reason++ = '\0';
			*usec++ = '\0';
			if (strcmp(line, p->p->task) || (p->p->reason[0] && strcmp(reason, p->p->reason)) ||
			    sscanf(usec, "%lf %lf", &us, &count) != 2 || !(us >= 0) || !(count > 0))
				continue;
			add_sample(&v, &nv, &cap, us, count);
		}
		free(text);
	}
	if (nv)
		total = write_cdf_steps(r, file, v, nv, PICTURE_X_MAX_MS, &steps);
	free(v);
	return total;
}

const char *plot_picture(struct report_model *r, const struct picture *p, char *name,
			 size_t size, FILE *notes)
{
	char file[700], *path, *panels = NULL;
	size_t i, j, plen = 0, cols, rows, drawn = 0;
	FILE *f, *pf = NULL;

	if (!r->o->png_term || !file_name_ok(p->s->name) || !file_name_ok(p->mode))
		return NULL;
	for (i = 0; i < p->nfs; i++)
		if (!file_name_ok(p->fs[i].fs))
			return NULL;
	snprintf(name, size, "%s.%s.picture", p->s->name, p->mode);
	pf = open_memstream(&panels, &plen);
	for (i = 0; i < p->nfs; i++) {
		const struct picture_fs *fs = &p->fs[i];
		struct sample *v = NULL;
		size_t nv = 0, cap = 0, steps = 0;
		double lab, thread = 0;
		int any = 0;

		snprintf(file, sizeof(file), "%s.%s.lab.dat", name, fs->fs);
		lab = picture_lab_waits(r, p, fs, file);
		for (j = 0; fs->thread && j < fs->thread->n; j++)
			add_sample(&v, &nv, &cap, (double)fs->thread->usec[j], 1);
		if (nv) {
			snprintf(file, sizeof(file), "%s.%s.thread.dat", name, fs->fs);
			thread = write_cdf_steps(r, file, v, nv, PICTURE_X_MAX_MS, &steps);
		}
		free(v);
		drawn += lab > 0 || thread > 0;
		fprintf(pf, "set title ");
		gp_str(pf, "%s: thread %s, lab %s", fs->fs,
		       fs->thread ? picture_class(fs->thread_share) : "no trace",
		       fs->counted.n ? picture_class(fs->share) : "no run");
		/* the y axis is named once a row */
		if (i % PICTURE_PANELS_A_ROW)
			fprintf(pf, "\nunset ylabel");
		else
			fprintf(pf, "\nset ylabel 'share at most this long'");
		fprintf(pf, "\n");
		if (!lab && !thread)
			fprintf(pf, "set label 1 'no waits' at graph 0.5,0.5 center\n");
		fprintf(pf, "plot ");
		if (lab > 0) {
			snprintf(file, sizeof(file), "%s.%s.lab.dat", name, fs->fs);
			gp_str(pf, "%s", file);
			fprintf(pf, " using 1:2 with steps lw 2 lc %zu title ", fs_color(r, fs->fs));
			gp_str(pf, "lab: %.0f waits, %zu run%s", lab, fs->counted.n,
			       fs->counted.n > 1 ? "s" : "");
			any = 1;
		}
		if (thread > 0) {
			snprintf(file, sizeof(file), "%s.%s.thread.dat", name, fs->fs);
			fprintf(pf, "%s", any ? ", " : "");
			gp_str(pf, "%s", file);
			fprintf(pf, " using 1:2 with steps lw 2 dt 2 lc rgb 'black' title ");
			gp_str(pf, "thread: %.0f waits", thread);
			fprintf(pf, ", ");
			/* the quoted waits themselves, one point a value */
			gp_str(pf, "%s", file);
			fprintf(pf, " using 1:2 every ::1::%zu with points pt 7 ps 0.6 lc rgb 'black' notitle",
				steps);
			any = 1;
		}
		if (!any)
			fprintf(pf, "NaN notitle");
		fprintf(pf, "\nunset label 1\n");
	}
	fclose(pf);
	if (!drawn) {
		free(panels);
		return NULL;
	}
	cols = p->nfs < PICTURE_PANELS_A_ROW ? p->nfs : PICTURE_PANELS_A_ROW;
	rows = (p->nfs + cols - 1) / cols;
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(r, file, &path);
	fprintf(f, "set multiplot layout %zu,%zu title ", rows, cols);
	gp_str(f, "%s, %s: %s, CDF by duration in ms (timeout %ld); lab solid, the thread dashed",
	       p->s->name, p->mode, p->p->metric, PICTURE_TIMEOUT_USEC / 1000);
	fprintf(f, "\n");
	/* the timeout as a line: a batched filesystem's waits end on it */
	fprintf(f, "set xrange [0:%d]\nset yrange [0:1.05]\nset clip two\nset grid\nset xtics 0,25,100\n",
		PICTURE_X_MAX_MS);
	fprintf(f, "set arrow 1 from %ld, graph 0 to %ld, graph 1 nohead dt 3 lc rgb 'gray40'\n",
		PICTURE_TIMEOUT_USEC / 1000, PICTURE_TIMEOUT_USEC / 1000);
	/* the x axis is named in the title: a panel's height goes to its curves */
	fprintf(f, "unset xlabel\n");
	/* one bottom margin for every panel: its key in it, or none */
	fprintf(f, "set key outside below vertical Left reverse\nset bmargin 4.5\n%sunset multiplot\n",
		panels);
	fclose(f);
	free(path);
	free(panels);
	/* one row fits a laptop's first screen below the report's header */
	return render(r, name, 1200, (int)(270 * rows + 20), notes) ? NULL : name;
}

void plots_section(struct report_model *r, struct model_scenario *s, FILE *f, FILE *notes)
{
	static const char *const kinds[] = { "hist", "cdf", "throughput", "waits", "completions" };
	static const char *const labels[] = {
		"wait-duration histogram", "wait-duration CDF", "throughput over time",
		"waits and stalled ms per second", "folios ended per 10 ms",
	};
	int (*const plot[])(struct report_model *, struct model_scenario *, const char *, FILE *) = {
		plot_hist, plot_cdf, plot_throughput, plot_waits, plot_completions,
	};
	size_t i, k, j;
	int any = 0;

	fprintf(f, "### Plots\n\n");
	for (i = 0; i < r->modes.n; i++) {
		const char *m = r->modes.v[i];
		int links = 0, some = 0;

		for (j = 0; j < r->fs.n; j++)
			some |= model_count_runs(r, s->name, r->fs.v[j], m, 1) > 0;
		if (!some)
			continue;
		fprintf(f, "- %s: ", m);
		/* the names make the plots' file names */
		for (j = 0; j < r->fs.n && file_name_ok(r->fs.v[j]); j++)
			;
		if (!file_name_ok(s->name) || !file_name_ok(m) || j < r->fs.n) {
			fprintf(f, "no plots (a scenario, filesystem or mode name holds a '/')\n");
			any = 1;
			continue;
		}
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (plot[k](r, s, m, notes) < 0)
				continue;
			fprintf(f, "%s[%s](plots/%s.%s.%s.svg) ([png](plots/%s.%s.%s.png))", links++ ? " · " : "",
				labels[k], s->name, m, kinds[k], s->name, m, kinds[k]);
		}
		if (!links)
			fprintf(f, "no data to plot (no reclaim waits, no progress files)");
		fprintf(f, "\n");
		any = 1;
	}
	if (!any)
		fprintf(f, "No ok run: nothing to plot.\n");
	if (!r->o->png_term)
		fprintf(f, "(gnuplot was not installed when this report was written: no plots.)\n");
	fprintf(f, "\n");
}
