// SPDX-License-Identifier: MIT
/*
 * Scenario files (--config FILE.yaml): a mapping whose keys are the long option names of a
 * command's table. There is no schema of its own: each key is looked up in the table and its
 * value handed to pb_cmd_set(), the command line's own setter, so keys, types, ranges and
 * error words are the table's. The shape a value may have (a single value, a list for rows
 * that take comma lists, a NAME: [values] mapping for a sweep) follows from the row's type.
 * libyaml's events carry their positions, so every error names the file, line and column.
 *
 * Two passes over the same bytes: the first only checks that the YAML is well formed (one
 * document, no aliases, not absurdly deep), so a syntax error is reported as such wherever
 * it stands; the second walks the document and sets the options.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "options.h"
#include "scenario.h"

#define SC_MAX_BYTES (1 << 20) /* a scenario is a few lines; refuse anything this big */
#define SC_MAX_DEPTH 16

/* A list item: its text and where it stands. */
struct sc_item {
	const char *text;
	size_t line, col;
};

/* One load. */
struct sc {
	const char *path;
	const struct pb_cmd *cmd;
	void *dst;     /* what the file sets, a copy: the caller's changes only if all is good */
	void *scratch; /* for trying one list item alone */
	yaml_parser_t parser;
	yaml_event_t ev; /* the current event */
	bool have_ev;
	size_t *seen_line; /* per row: the line its key stood on; 0: not given yet */
	bool *seen_list;   /* per row: given as its list_key */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 4, 0))) static int sc_vfail(struct sc *s, size_t line, size_t col,
							  const char *fmt, va_list ap)
{
	int off = line ? snprintf(s->err, s->errlen, "%s:%zu:%zu: ", s->path, line, col)
		       : snprintf(s->err, s->errlen, "%s: ", s->path);

	if (off >= 0 && (size_t)off < s->errlen)
		vsnprintf(s->err + off, s->errlen - off, fmt, ap);
	return -EINVAL;
}

/* "path:line:col: message"; -EINVAL. line 0: no position. */
__attribute__((format(printf, 4, 5))) static int sc_fail(struct sc *s, size_t line, size_t col,
							 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sc_vfail(s, line, col, fmt, ap);
	va_end(ap);
	return ret;
}

/* The same, where the current event starts. */
__attribute__((format(printf, 2, 3))) static int sc_fail_here(struct sc *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sc_vfail(s, s->ev.start_mark.line + 1, s->ev.start_mark.column + 1, fmt, ap);
	va_end(ap);
	return ret;
}

static int sc_nomem(struct sc *s)
{
	snprintf(s->err, s->errlen, "%s: out of memory", s->path);
	return -ENOMEM;
}

/* s for a message: at most 60 characters, "..." when cut. */
static const char *sc_quote(const char *t, char *buf, size_t len)
{
	snprintf(buf, len, "%.60s%s", t, strlen(t) > 60 ? "..." : "");
	return buf;
}

static const char *sc_text(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

/* A plain scalar YAML reads as null: empty, ~ or null. */
static bool sc_null(const yaml_event_t *ev)
{
	const char *t = sc_text(ev);

	return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*t || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null") ||
		!strcmp(t, "NULL"));
}

/* What the current event is, for "expected X, not Y". */
static const char *sc_found(const yaml_event_t *ev, char *buf, size_t len)
{
	char q[80];

	if (ev->type == YAML_SEQUENCE_START_EVENT)
		return "a list";
	if (ev->type == YAML_MAPPING_START_EVENT)
		return "a mapping";
	snprintf(buf, len, "'%s'", sc_quote(sc_text(ev), q, sizeof(q)));
	return buf;
}

/* The shape a row's value has, in words. */
static const char *sc_expects(const struct pb_opt *o)
{
	if (o->flags & PB_OPTF_LIST)
		return "a single value or a list";
	switch (o->type) {
	case OPT_U64:
	case OPT_U32:
	case OPT_PORT:
	case OPT_COUNT:
		return "a whole number";
	case OPT_SECS:
	case OPT_PCT:
		return "a number";
	case OPT_RATE:
		return "a rate";
	case OPT_FLAG:
		return "true or false";
	case OPT_SWEEP:
		return "a mapping";
	default:
		return "a single value";
	}
}

/* libyaml's complaint about malformed input, where it found it. */
static int sc_syntax_error(struct sc *s, const yaml_parser_t *p, const unsigned char *buf,
			   size_t len)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";
	size_t line = 1, col = 1, i;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		return sc_nomem(s);
	case YAML_READER_ERROR:
		/* bad encoding: libyaml gives a byte offset, not a mark */
		for (i = 0; i < p->problem_offset && i < len; i++, col++) {
			if (buf[i] == '\n') {
				line++;
				col = 0;
			}
		}
		if (p->problem_value != -1)
			return sc_fail(s, line, col, "%s (byte 0x%x)", problem, p->problem_value);
		return sc_fail(s, line, col, "%s", problem);
	default:
		line = p->problem_mark.line + 1;
		col = p->problem_mark.column + 1;
		if (p->context)
			return sc_fail(s, line, col, "%s (%s at line %zu)", problem, p->context,
				       p->context_mark.line + 1);
		return sc_fail(s, line, col, "%s", problem);
	}
}

/* The first pass: well-formed, one document, no aliases, no NUL in a scalar, not too deep. */
static int sc_check_syntax(struct sc *s, const unsigned char *buf, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	size_t line, col;
	int depth = 0, docs = 0, ret = 0;
	bool done = false;

	if (!yaml_parser_initialize(&p))
		return sc_nomem(s);
	yaml_parser_set_input_string(&p, buf, len);
	while (!done && !ret) {
		if (!yaml_parser_parse(&p, &ev)) {
			ret = sc_syntax_error(s, &p, buf, len);
			break;
		}
		line = ev.start_mark.line + 1;
		col = ev.start_mark.column + 1;

		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ret = sc_fail(s, line, col,
					      "a second YAML document: a scenario is one");
			break;
		case YAML_ALIAS_EVENT:
			ret = sc_fail(s, line, col,
				      "aliases (*name) are not supported in a scenario");
			break;
		case YAML_SCALAR_EVENT:
			if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length))
				ret = sc_fail(s, line, col, "a NUL character in a key or value");
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > SC_MAX_DEPTH)
				ret = sc_fail(s, line, col,
					      "nested more than %d deep: not a scenario",
					      SC_MAX_DEPTH);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return ret;
}

/* The second pass's next event into s->ev. */
static int sc_next(struct sc *s)
{
	if (s->have_ev)
		yaml_event_delete(&s->ev);
	s->have_ev = yaml_parser_parse(&s->parser, &s->ev);
	if (s->have_ev)
		return 0;
	/* the first pass read the same bytes without trouble: only memory can run out here */
	return s->parser.error == YAML_MEMORY_ERROR ? sc_nomem(s)
						    : sc_fail(s, 0, 0, "malformed YAML");
}

/*
 * pb_cmd_set() into dst, with the position on failure. The setter's "--name: " becomes
 * "path: ", so a message reads as the file spells it.
 */
static int sc_set(struct sc *s, void *dst, const struct pb_opt *o, const char *value,
		  const char *path, size_t line, size_t col)
{
	char msg[512];
	const char *colon;

	if (!pb_cmd_set(s->cmd, dst, o, value, msg, sizeof(msg)))
		return 0;
	colon = strstr(msg, ": ");
	if (!strncmp(msg, "--", 2) && colon)
		return sc_fail(s, line, col, "%s%s", path, colon);
	return sc_fail(s, line, col, "%s", msg);
}

/*
 * A list's items, joined by commas after prefix and set as row o. When that fails, each item
 * alone (after item_prefix) is tried as row check, so the message can point at the item that
 * is wrong; otherwise it points at the list.
 */
static int sc_list(struct sc *s, const struct pb_opt *o, const char *path, const char *prefix,
		   const struct pb_opt *check, const char *item_prefix)
{
	size_t line = s->ev.start_mark.line + 1, col = s->ev.start_mark.column + 1;
	size_t n = 0, cap = 0, len = strlen(prefix) + 1, i, off;
	struct sc_item *items = NULL, *nitems;
	char *joined = NULL, found[96], one[512];
	int ret = 0;

	while (!ret && !(ret = sc_next(s)) && s->ev.type != YAML_SEQUENCE_END_EVENT) {
		if (s->ev.type != YAML_SCALAR_EVENT) {
			ret = sc_fail_here(s, "%s: expected a single value in the list, not %s",
					   path, sc_found(&s->ev, found, sizeof(found)));
			break;
		}
		if (sc_null(&s->ev)) {
			ret = sc_fail_here(s, "%s: an empty item in the list", path);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nitems = realloc(items, cap * sizeof(*items));
			if (!nitems) {
				ret = sc_nomem(s);
				break;
			}
			items = nitems;
		}
		items[n].text = strdup(sc_text(&s->ev));
		items[n].line = s->ev.start_mark.line + 1;
		items[n].col = s->ev.start_mark.column + 1;
		if (!items[n].text) {
			ret = sc_nomem(s);
			break;
		}
		len += strlen(items[n++].text) + 1;
	}
	if (!ret && !n)
		ret = sc_fail(s, line, col, "%s: the list is empty", path);
	if (!ret) {
		joined = malloc(len);
		if (!joined)
			ret = sc_nomem(s);
	}
	if (!ret) {
		off = (size_t)snprintf(joined, len, "%s", prefix);
		for (i = 0; i < n; i++)
			off += (size_t)snprintf(joined + off, len - off, "%s%s", i ? "," : "",
						items[i].text);
		if (pb_cmd_set(s->cmd, s->dst, o, joined, one, sizeof(one))) {
			for (i = 0; i < n && !ret; i++) {
				memcpy(s->scratch, s->dst, s->cmd->size);
				snprintf(one, sizeof(one), "%s%s", item_prefix, items[i].text);
				ret = sc_set(s, s->scratch, check, one, path, items[i].line,
					     items[i].col);
			}
			if (!ret)
				ret = sc_set(s, s->dst, o, joined, path, line, col);
		}
	}
	for (i = 0; i < n; i++)
		free((void *)items[i].text);
	free(items);
	free(joined);
	return ret;
}

/* "frame-size or streams": the names a sweep row takes. */
static void sc_sweep_names(const struct pb_opt *o, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; o->names[k] && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					k ? (o->names[k + 1] ? ", " : " or ") : "", o->names[k]);
}

/* sweep: {frame-size: [64, 128]}, as --sweep frame-size=64,128; at the mapping's start. */
static int sc_sweep(struct sc *s, const struct pb_opt *o, const char *path)
{
	size_t line = s->ev.start_mark.line + 1, col = s->ev.start_mark.column + 1;
	const struct pb_opt *row = NULL;
	char names[128], prefix[64], sub[256], found[96], q[80];
	unsigned int k;
	int ret;

	sc_sweep_names(o, names, sizeof(names));
	ret = sc_next(s);
	if (ret)
		return ret;
	if (s->ev.type == YAML_MAPPING_END_EVENT)
		return sc_fail(s, line, col, "%s: expected %s with a list of values", path, names);
	if (s->ev.type != YAML_SCALAR_EVENT)
		return sc_fail_here(s, "a key must be an option name, not %s",
				    sc_found(&s->ev, found, sizeof(found)));
	for (k = 0; o->names[k]; k++)
		if (!strcmp(o->names[k], sc_text(&s->ev)))
			row = pb_cmd_opt(s->cmd, o->names[k]);
	if (!row)
		return sc_fail_here(s, "%s: unknown key '%s'", path,
				    sc_quote(sc_text(&s->ev), q, sizeof(q)));
	snprintf(prefix, sizeof(prefix), "%s=", row->name);
	snprintf(sub, sizeof(sub), "%s: %s", path, row->name);

	ret = sc_next(s);
	if (ret)
		return ret;
	if (s->ev.type == YAML_SEQUENCE_START_EVENT) {
		ret = sc_list(s, o, sub, prefix, row, "");
	} else if (s->ev.type == YAML_MAPPING_START_EVENT) {
		ret = sc_fail_here(s, "%s: expected a list, not a mapping", sub);
	} else if (sc_null(&s->ev)) {
		ret = sc_fail_here(s, "%s: no value given", sub);
	} else {
		char *arg = malloc(strlen(prefix) + strlen(sc_text(&s->ev)) + 1);

		if (!arg)
			return sc_nomem(s);
		sprintf(arg, "%s%s", prefix, sc_text(&s->ev));
		ret = sc_set(s, s->dst, o, arg, path, s->ev.start_mark.line + 1,
			     s->ev.start_mark.column + 1);
		free(arg);
	}
	if (!ret)
		ret = sc_next(s);
	if (ret || s->ev.type == YAML_MAPPING_END_EVENT)
		return ret;
	for (k = 0; s->ev.type == YAML_SCALAR_EVENT && o->names[k]; k++)
		if (!strcmp(o->names[k], sc_text(&s->ev)))
			return sc_fail_here(s, "%s: give %s, %s", path, names,
					    o->names[1] && !o->names[2] ? "not both" : "only one");
	if (s->ev.type != YAML_SCALAR_EVENT)
		return sc_fail_here(s, "a key must be an option name, not %s",
				    sc_found(&s->ev, found, sizeof(found)));
	return sc_fail_here(s, "%s: unknown key '%s'", path,
			    sc_quote(sc_text(&s->ev), q, sizeof(q)));
}

/* The value of key (row o, spelt key, as its list_key if plural), at the current event. */
static int sc_value(struct sc *s, const struct pb_opt *o, const char *key, bool plural)
{
	char found[96];
	int ret = sc_next(s);

	if (ret)
		return ret;
	switch (s->ev.type) {
	case YAML_SCALAR_EVENT:
		if (plural)
			return sc_fail_here(s, "%s: expected a list, not %s", key,
					    sc_found(&s->ev, found, sizeof(found)));
		if (sc_null(&s->ev))
			return sc_fail_here(s, "%s: no value given%s%s%s", key,
					    *sc_text(&s->ev) ? " (YAML reads " : "",
					    sc_text(&s->ev),
					    *sc_text(&s->ev) ? " as nothing: quote it)" : "");
		return sc_set(s, s->dst, o, sc_text(&s->ev), key, s->ev.start_mark.line + 1,
			      s->ev.start_mark.column + 1);
	case YAML_SEQUENCE_START_EVENT:
		if (plural || (o->flags & PB_OPTF_LIST))
			return sc_list(s, o, key, "", o, "");
		break;
	case YAML_MAPPING_START_EVENT:
		if (o->type == OPT_SWEEP)
			return sc_sweep(s, o, key);
		break;
	default:
		break;
	}
	return sc_fail_here(s, "%s: expected %s, not %s", key, sc_expects(o),
			    sc_found(&s->ev, found, sizeof(found)));
}

/* One key of the top-level mapping (the current event), then its value. */
static int sc_key(struct sc *s)
{
	const struct pb_opt *o;
	char key[128], found[96], q[80];
	size_t line = s->ev.start_mark.line + 1, i;
	bool plural;

	if (s->ev.type != YAML_SCALAR_EVENT)
		return sc_fail_here(s, "a key must be an option name, not %s",
				    sc_found(&s->ev, found, sizeof(found)));
	o = pb_cmd_opt(s->cmd, sc_text(&s->ev));
	if (!o || !pb_opt_in_file(o))
		return sc_fail_here(s, "unknown key '%s'", sc_quote(sc_text(&s->ev), q, sizeof(q)));
	snprintf(key, sizeof(key), "%s", sc_text(&s->ev));
	plural = o->list_key && !strcmp(key, o->list_key);
	i = (size_t)(o - s->cmd->opts);
	if (s->seen_line[i] && s->seen_list[i] == plural)
		return sc_fail_here(s, "'%s' is given twice (first at line %zu)", key,
				    s->seen_line[i]);
	if (s->seen_line[i])
		return sc_fail_here(s, "give '%s' or '%s', not both", o->name, o->list_key);
	s->seen_line[i] = line;
	s->seen_list[i] = plural;
	return sc_value(s, o, key, plural);
}

/* The second pass: the document is a mapping with something in it; each key is set. */
static int sc_walk(struct sc *s)
{
	static const char empty[] =
		"empty scenario: expected option names and values, e.g. 'duration: 5'";
	char found[96];
	size_t line, col;
	int ret, keys = 0;

	ret = sc_next(s); /* stream start */
	if (!ret)
		ret = sc_next(s);
	if (ret)
		return ret;
	if (s->ev.type == YAML_STREAM_END_EVENT)
		return sc_fail(s, 1, 1, "%s", empty);
	ret = sc_next(s); /* after the document start: the root */
	if (ret)
		return ret;
	if (s->ev.type == YAML_SCALAR_EVENT && sc_null(&s->ev))
		return sc_fail_here(s, "%s", empty);
	if (s->ev.type != YAML_MAPPING_START_EVENT)
		return sc_fail_here(s,
				    "expected a mapping of option names to values (e.g. "
				    "'duration: 5'), not %s",
				    sc_found(&s->ev, found, sizeof(found)));
	line = s->ev.start_mark.line + 1;
	col = s->ev.start_mark.column + 1;
	while (!(ret = sc_next(s)) && s->ev.type != YAML_MAPPING_END_EVENT) {
		ret = sc_key(s);
		if (ret)
			return ret;
		keys++;
	}
	if (!ret && !keys)
		return sc_fail(s, line, col, "%s", empty);
	return ret;
}

/* The whole file into *out (at most SC_MAX_BYTES); -errno with "path: strerror" if unreadable. */
static int sc_read(struct sc *s, unsigned char **out, size_t *outlen)
{
	size_t len = 0, cap = 4096;
	unsigned char *buf = NULL, *nbuf;
	bool too_big = false;
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	while (!ret && !too_big) {
		if (!buf || len == cap) {
			cap = buf ? cap * 2 : cap;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				ret = -ENOMEM;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno != EINTR)
			ret = -errno;
		if (n <= 0) {
			if (!n)
				break;
			continue;
		}
		len += (size_t)n;
		too_big = len > SC_MAX_BYTES;
	}
	if (fd >= 0)
		close(fd);
	if (ret)
		snprintf(s->err, s->errlen, "%s: %s", s->path, strerror(-ret));
	else if (too_big)
		ret = sc_fail(s, 0, 0, "larger than %d bytes: not a scenario", SC_MAX_BYTES);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/*
 * Messages are one line, whatever the file or its name holds; the other bytes a terminal
 * would act on are escaped where the message is written (pb_log_write).
 */
static void sc_one_line(char *t)
{
	for (; *t; t++)
		if (*t == '\n')
			*t = ' ';
}

int pb_yaml_load(const struct pb_cmd *cmd, void *dst, const char *path, bool *given, char *err,
		 size_t errlen)
{
	struct sc s = { .path = path, .cmd = cmd, .err = err, .errlen = errlen };
	unsigned char *buf = NULL;
	size_t len = 0, i;
	int ret;

	if (errlen)
		err[0] = '\0';
	s.dst = malloc(cmd->size);
	s.scratch = malloc(cmd->size);
	s.seen_line = calloc(cmd->nopts, sizeof(*s.seen_line));
	s.seen_list = calloc(cmd->nopts, sizeof(*s.seen_list));
	if (!s.dst || !s.scratch || !s.seen_line || !s.seen_list)
		ret = sc_nomem(&s);
	else
		ret = sc_read(&s, &buf, &len);
	if (!ret)
		ret = sc_check_syntax(&s, buf, len);
	if (!ret && !yaml_parser_initialize(&s.parser))
		ret = sc_nomem(&s);
	else if (!ret) {
		yaml_parser_set_input_string(&s.parser, buf, len);
		memcpy(s.dst, dst, cmd->size);
		ret = sc_walk(&s);
		if (s.have_ev)
			yaml_event_delete(&s.ev);
		yaml_parser_delete(&s.parser);
		if (!ret)
			memcpy(dst, s.dst, cmd->size);
	}
	for (i = 0; !ret && given && i < cmd->nopts; i++)
		given[i] = s.seen_line[i] != 0;
	free(buf);
	free(s.dst);
	free(s.scratch);
	free(s.seen_line);
	free(s.seen_list);
	if (errlen)
		sc_one_line(err);
	return ret;
}

int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen)
{
	return pb_yaml_load(&pb_cmd_main, cfg, path, NULL, err, errlen);
}
