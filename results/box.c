// SPDX-License-Identifier: MIT
/* ASCII box tables: measuring columns and drawing rules and rows, for every table we print. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "box.h"

void pb_box_cell(char *cell, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cell, size, fmt, ap);
	va_end(ap);
}

void pb_box_fit(struct pb_box_col *cols, unsigned int ncols, const void *rows, size_t row_size,
		size_t cell_size, unsigned int nrows)
{
	unsigned int c, i;

	for (c = 0; c < ncols; c++) {
		if (strlen(cols[c].head) > cols[c].width)
			cols[c].width = strlen(cols[c].head);
		for (i = 0; i < nrows; i++) {
			const char *cell = (const char *)rows + i * row_size + c * cell_size;
			size_t len = strnlen(cell, cell_size);

			if (len > cols[c].width)
				cols[c].width = len;
		}
	}
}

/* $COLUMNS as a width, 0 when unset or not a sane number. */
static unsigned int pb_box_env_columns(void)
{
	const char *c = getenv("COLUMNS");
	char *end;
	unsigned long v;

	if (!c || !*c)
		return 0;
	v = strtoul(c, &end, 10);
	return *end || v < 20 || v > 10000 ? 0 : (unsigned int)v;
}

unsigned int pb_box_out_width(int fd, bool wide)
{
	struct winsize ws;
	unsigned int env = pb_box_env_columns();

	if (wide)
		return 0;
	if (!isatty(fd))
		return env;
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return env ? env : 80;
}

size_t pb_box_width(const struct pb_box_col *cols, unsigned int ncols)
{
	size_t w = 1;
	unsigned int c;

	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			w += cols[c].width + 3;
	return w;
}

unsigned int pb_box_fit_width(struct pb_box_col *cols, unsigned int ncols, const void *rows,
			      size_t row_size, size_t cell_size, unsigned int nrows, size_t width)
{
	unsigned int c, best, dropped = 0;
	size_t total;

	pb_box_fit(cols, ncols, rows, row_size, cell_size, nrows);
	if (!width || pb_box_width(cols, ncols) <= width)
		return 0;
	for (c = 0; c < ncols; c++) {
		if (cols[c].abbr)
			cols[c].head = cols[c].abbr;
		cols[c].width = 0;
	}
	pb_box_fit(cols, ncols, rows, row_size, cell_size, nrows);
	while (pb_box_width(cols, ncols) > width) {
		best = ncols;
		for (c = 0; c < ncols; c++)
			if (!cols[c].hidden && cols[c].drop &&
			    (best == ncols || cols[c].drop >= cols[best].drop))
				best = c;
		if (best == ncols)
			break;
		cols[best].hidden = true;
		cols[best].dropped = true;
		dropped++;
	}
	/* what is left is kept: the widest text column gives way, its cells cut */
	total = pb_box_width(cols, ncols);
	best = ncols;
	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden && cols[c].left &&
		    (best == ncols || cols[c].width > cols[best].width))
			best = c;
	if (total > width && best < ncols) {
		size_t over = total - width, keep = strlen(cols[best].head);

		keep = keep > 6 ? keep : 6;
		cols[best].width = cols[best].width > over + keep ? cols[best].width - over : keep;
	}
	return dropped;
}

void pb_box_dropped_note(FILE *f, const struct pb_box_col *cols, unsigned int ncols, size_t width)
{
	char names[256] = "";
	size_t pos = 0;
	unsigned int c;

	for (c = 0; c < ncols; c++)
		if (cols[c].dropped && pos < sizeof(names))
			pos += (size_t)snprintf(names + pos, sizeof(names) - pos, "%s%s",
						pos ? ", " : "", cols[c].head);
	if (pos)
		pb_box_note(f, width, "  not shown at %zu columns (--wide shows all): %s", width,
			    names);
}

/* One line of a note (no '\n'), wrapped at width; continued lines indented two more. */
static void pb_box_note_line(FILE *f, size_t width, const char *line, size_t len)
{
	size_t lead = strspn(line, " "), indent = lead + 2, col, w;
	const char *p = line + lead, *end = line + len;

	if (!width || len <= width || indent * 2 > width) {
		fprintf(f, "%.*s\n", (int)len, line);
		return;
	}
	fprintf(f, "%*s", (int)lead, "");
	col = lead;
	while (p < end) {
		for (w = 0; p + w < end && p[w] != ' '; w++)
			;
		if (col > lead && col + 1 + w > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > lead) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += w;
		p += w;
		while (p < end && *p == ' ')
			p++;
	}
	fputc('\n', f);
}

void pb_box_note(FILE *f, size_t width, const char *fmt, ...)
{
	char text[2048];
	const char *p = text;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	while (*p) {
		len = strcspn(p, "\n");
		pb_box_note_line(f, width, p, len);
		p += len;
		if (*p == '\n')
			p++;
	}
}

void pb_box_rule(FILE *f, const struct pb_box_col *cols, unsigned int ncols)
{
	unsigned int c;
	size_t k;

	fputc('+', f);
	for (c = 0; c < ncols; c++) {
		if (cols[c].hidden)
			continue;
		for (k = 0; k < cols[c].width + 2; k++)
			fputc('-', f);
		fputc('+', f);
	}
	fputc('\n', f);
}

static void pb_box_cell_print(FILE *f, const struct pb_box_col *col, const char *text)
{
	/* .* cuts a cell of a column pb_box_fit_width narrowed */
	if (col->left)
		fprintf(f, " %-*.*s |", (int)col->width, (int)col->width, text);
	else
		fprintf(f, " %*.*s |", (int)col->width, (int)col->width, text);
}

void pb_box_head(FILE *f, const struct pb_box_col *cols, unsigned int ncols)
{
	unsigned int c;

	fputc('|', f);
	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			pb_box_cell_print(f, &cols[c], cols[c].head);
	fputc('\n', f);
}

void pb_box_row(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const void *row,
		size_t cell_size)
{
	unsigned int c;

	fputc('|', f);
	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			pb_box_cell_print(f, &cols[c], (const char *)row + c * cell_size);
	fputc('\n', f);
}

void pb_box_span(FILE *f, const struct pb_box_col *cols, unsigned int ncols, const char *text)
{
	size_t inner = 0;
	unsigned int c;

	for (c = 0; c < ncols; c++)
		if (!cols[c].hidden)
			inner += cols[c].width + 3;
	fprintf(f, "| %-*.*s |\n", (int)(inner - 3), (int)(inner - 3), text);
}

void pb_box_table(FILE *f, struct pb_box_col *cols, unsigned int ncols, const void *rows,
		  size_t row_size, size_t cell_size, unsigned int nrows, size_t width)
{
	unsigned int i;

	pb_box_fit_width(cols, ncols, rows, row_size, cell_size, nrows, width);
	pb_box_rule(f, cols, ncols);
	pb_box_head(f, cols, ncols);
	pb_box_rule(f, cols, ncols);
	for (i = 0; i < nrows; i++)
		pb_box_row(f, cols, ncols, (const char *)rows + i * row_size, cell_size);
	pb_box_rule(f, cols, ncols);
}

int pb_stream_status(FILE *f)
{
	if (fflush(f))
		return -errno;
	return ferror(f) ? -EIO : 0;
}
