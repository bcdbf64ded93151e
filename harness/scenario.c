// SPDX-License-Identifier: MIT
/*
 * Scenario files (--config FILE.yaml): a mapping whose keys are the long option names. The
 * schema is declared once, for libcyaml, which checks the shape (known keys; a list, a mapping
 * or a single value where each belongs; numbers and booleans where those belong). Each value
 * is then set through pb_option_set() as the file spells it, so a file is checked exactly like
 * the command line (libcyaml alone would read "1.5" as a port 1 and "maybe" as true). A libyaml
 * pass over the same bytes comes first: it rejects malformed YAML and records where every node
 * starts, so each error names the file, line and column.
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

#include <cyaml/cyaml.h>
#include <yaml.h>

#include "method.h"
#include "options.h"
#include "scenario.h"

#define SC_MAX_BYTES (1 << 20) /* a scenario is a few lines; refuse anything this big */
#define SC_MAX_NODES 4096
#define SC_MAX_DEPTH 16

/* --- the schema: what libcyaml loads (and we then discard; see the top comment) ----------- */

struct sc_sweep {
	uint64_t *frame_size;
	unsigned int frame_size_count;
	uint64_t *streams;
	unsigned int streams_count;
};

struct sc_file {
	char *method;
	char **methods;
	unsigned int methods_count;
	double duration;
	uint64_t count;
	double count_timeout;
	uint64_t repeat;
	char *iface;
	char *dstip, *srcip, *dstmac, *srcmac;
	uint64_t dstport, srcport;
	uint64_t payloadsize, frame_size;
	struct sc_sweep *sweep;
	bool imix;
	uint64_t flows;
	bool flows_src_ip;
	uint64_t vlan, vlan_prio;
	uint64_t streams, segments, batch;
	char *pps, *rate, *cpus;
	double link_timeout;
	bool keep_lab;
	char *xdp_mode, *zerocopy;
	bool force;
	char *format, *output;
	bool quiet;
	uint64_t verbose;
};

#define SC_STR(key, m)                                                                             \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_OPTIONAL, struct sc_file, m, 0, CYAML_UNLIMITED)
#define SC_UINT(key, m)	 CYAML_FIELD_UINT(key, CYAML_FLAG_OPTIONAL, struct sc_file, m)
#define SC_FLOAT(key, m) CYAML_FIELD_FLOAT(key, CYAML_FLAG_OPTIONAL, struct sc_file, m)
#define SC_BOOL(key, m)	 CYAML_FIELD_BOOL(key, CYAML_FLAG_OPTIONAL, struct sc_file, m)

static const cyaml_schema_value_t sc_string = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};
static const cyaml_schema_value_t sc_uint = {
	CYAML_VALUE_UINT(CYAML_FLAG_DEFAULT, uint64_t),
};

/* sweep: {frame-size: [64, 128]} or {streams: [1, 2]}; the loader insists on exactly one */
static const cyaml_schema_field_t sc_sweep_fields[] = {
	CYAML_FIELD_SEQUENCE("frame-size", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct sc_sweep, frame_size, &sc_uint, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("streams", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct sc_sweep,
			     streams, &sc_uint, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END,
};

/* The keys: the long option names, less help, version and config. */
static const cyaml_schema_field_t sc_fields[] = {
	SC_STR("method", method),
	CYAML_FIELD_SEQUENCE("methods", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct sc_file,
			     methods, &sc_string, 0, CYAML_UNLIMITED),
	SC_FLOAT("duration", duration),
	SC_UINT("count", count),
	SC_FLOAT("count-timeout", count_timeout),
	SC_UINT("repeat", repeat),
	SC_STR("iface", iface),
	SC_STR("dstip", dstip),
	SC_STR("srcip", srcip),
	SC_STR("dstmac", dstmac),
	SC_STR("srcmac", srcmac),
	SC_UINT("dstport", dstport),
	SC_UINT("srcport", srcport),
	SC_UINT("payloadsize", payloadsize),
	SC_UINT("frame-size", frame_size),
	CYAML_FIELD_MAPPING_PTR("sweep", CYAML_FLAG_OPTIONAL, struct sc_file, sweep,
				sc_sweep_fields),
	SC_BOOL("imix", imix),
	SC_UINT("flows", flows),
	SC_BOOL("flows-src-ip", flows_src_ip),
	SC_UINT("vlan", vlan),
	SC_UINT("vlan-prio", vlan_prio),
	SC_UINT("streams", streams),
	SC_UINT("segments", segments),
	SC_UINT("batch", batch),
	SC_STR("pps", pps),   /* 50k, 1.5M */
	SC_STR("rate", rate), /* Gb/s, also with a suffix */
	SC_STR("cpus", cpus), /* 0,2-3 */
	SC_FLOAT("link-timeout", link_timeout),
	SC_BOOL("keep-lab", keep_lab),
	SC_STR("xdp-mode", xdp_mode),
	SC_STR("zerocopy", zerocopy),
	SC_BOOL("force", force),
	SC_STR("format", format),
	SC_STR("output", output),
	SC_BOOL("quiet", quiet),
	SC_UINT("verbose", verbose),
	CYAML_FIELD_END,
};

static const cyaml_schema_value_t sc_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct sc_file, sc_fields),
};

/* --- the libyaml pass: every node, where it starts, and the scalars as written ------------ */

enum sc_kind {
	SC_SCALAR,
	SC_SEQ,
	SC_MAP,
};

struct sc_node {
	enum sc_kind kind;
	int parent; /* the enclosing mapping or sequence; -1 for the document's root */
	int key;    /* a mapping's value: its key node; else -1 */
	int value;  /* a mapping's key: its value node; else -1 */
	bool is_key;
	bool null;	  /* a plain scalar YAML reads as null: empty, ~ or null */
	char *text;	  /* a scalar's value */
	size_t line, col; /* 1-based */
};

/* One load: the file, its nodes in document order, and where the error goes. */
struct sc_doc {
	const char *path;
	struct sc_node *nodes;
	int n, cap;
	char *err;
	size_t errlen;
};

/* An open mapping or sequence while scanning. */
struct sc_open {
	int node;
	bool want_key; /* a mapping: the next node is a key */
	int key;       /* a mapping: the key whose value comes next */
};

__attribute__((format(printf, 4, 0))) static int sc_vfail(struct sc_doc *d, size_t line, size_t col,
							  const char *fmt, va_list ap)
{
	int off = line ? snprintf(d->err, d->errlen, "%s:%zu:%zu: ", d->path, line, col)
		       : snprintf(d->err, d->errlen, "%s: ", d->path);

	if (off >= 0 && (size_t)off < d->errlen)
		vsnprintf(d->err + off, d->errlen - off, fmt, ap);
	return -EINVAL;
}

/* "path:line:col: message"; -EINVAL. line 0: no position. */
__attribute__((format(printf, 4, 5))) static int sc_fail(struct sc_doc *d, size_t line, size_t col,
							 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sc_vfail(d, line, col, fmt, ap);
	va_end(ap);
	return ret;
}

/* The same, at where node i starts. */
__attribute__((format(printf, 3, 4))) static int sc_fail_node(struct sc_doc *d, int i,
							      const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sc_vfail(d, d->nodes[i].line, d->nodes[i].col, fmt, ap);
	va_end(ap);
	return ret;
}

/* s for a message: at most 60 characters, "..." when cut. */
static const char *sc_quote(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%.60s%s", s, strlen(s) > 60 ? "..." : "");
	return buf;
}

static int sc_nomem(struct sc_doc *d)
{
	snprintf(d->err, d->errlen, "%s: out of memory", d->path);
	return -ENOMEM;
}

/* Records the node an event starts (a scalar, a sequence or a mapping). */
static int sc_add(struct sc_doc *d, struct sc_open *open, int depth, const yaml_event_t *ev)
{
	struct sc_open *up = depth ? &open[depth - 1] : NULL;
	struct sc_node *nd;
	int i = d->n;

	if (d->n == SC_MAX_NODES)
		return sc_fail(d, ev->start_mark.line + 1, ev->start_mark.column + 1,
			       "more than %d YAML nodes: not a scenario", SC_MAX_NODES);
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 64;
		struct sc_node *nodes = realloc(d->nodes, cap * sizeof(*nodes));

		if (!nodes)
			return sc_nomem(d);
		d->nodes = nodes;
		d->cap = cap;
	}
	nd = &d->nodes[d->n++];
	*nd = (struct sc_node){
		.kind = ev->type == YAML_SCALAR_EVENT		? SC_SCALAR
			: ev->type == YAML_SEQUENCE_START_EVENT ? SC_SEQ
								: SC_MAP,
		.parent = up ? up->node : -1,
		.key = -1,
		.value = -1,
		.line = ev->start_mark.line + 1,
		.col = ev->start_mark.column + 1,
	};
	if (up && d->nodes[up->node].kind == SC_MAP) {
		if (up->want_key) {
			nd->is_key = true;
			up->key = i;
		} else {
			nd->key = up->key;
			d->nodes[up->key].value = i;
		}
		up->want_key = !up->want_key;
	}
	if (nd->kind == SC_SCALAR) {
		size_t len = ev->data.scalar.length;
		char *t;

		if (memchr(ev->data.scalar.value, '\0', len))
			return sc_fail_node(d, i, "a NUL character in a key or value");
		t = nd->text = malloc(len + 1);
		if (!t)
			return sc_nomem(d);
		memcpy(t, ev->data.scalar.value, len);
		t[len] = '\0';
		nd->null = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
			   (!len || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null") ||
			    !strcmp(t, "NULL"));
	} else if (nd->is_key) {
		return sc_fail_node(d, i, "a key must be an option name, not a %s",
				    nd->kind == SC_SEQ ? "list" : "mapping");
	}
	return 0;
}

/* libyaml's complaint about malformed input, where it found it. */
static int sc_syntax_error(struct sc_doc *d, const yaml_parser_t *p, const unsigned char *buf,
			   size_t len)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";
	size_t line = 1, col = 1, i;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		return sc_nomem(d);
	case YAML_READER_ERROR:
		/* bad encoding: libyaml gives a byte offset, not a mark */
		for (i = 0; i < p->problem_offset && i < len; i++, col++) {
			if (buf[i] == '\n') {
				line++;
				col = 0;
			}
		}
		if (p->problem_value != -1)
			return sc_fail(d, line, col, "%s (byte 0x%x)", problem, p->problem_value);
		return sc_fail(d, line, col, "%s", problem);
	default:
		line = p->problem_mark.line + 1;
		col = p->problem_mark.column + 1;
		if (p->context)
			return sc_fail(d, line, col, "%s (%s at line %zu)", problem, p->context,
				       p->context_mark.line + 1);
		return sc_fail(d, line, col, "%s", problem);
	}
}

/* The libyaml pass: well-formed, one document, no aliases, and every node recorded. */
static int sc_scan(struct sc_doc *d, const unsigned char *buf, size_t len)
{
	struct sc_open open[SC_MAX_DEPTH];
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, docs = 0, ret = 0;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		return sc_nomem(d);
	yaml_parser_set_input_string(&parser, buf, len);
	while (!done && !ret) {
		if (!yaml_parser_parse(&parser, &ev)) {
			ret = sc_syntax_error(d, &parser, buf, len);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ret = sc_fail(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
					      "a second YAML document: a scenario is one");
			break;
		case YAML_ALIAS_EVENT:
			ret = sc_fail(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
				      "aliases (*name) are not supported in a scenario");
			break;
		case YAML_SCALAR_EVENT:
			ret = sc_add(d, open, depth, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == SC_MAX_DEPTH) {
				ret = sc_fail(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
					      "nested more than %d deep: not a scenario",
					      SC_MAX_DEPTH);
				break;
			}
			ret = sc_add(d, open, depth, &ev);
			if (!ret)
				open[depth++] = (struct sc_open){ d->n - 1, true, -1 };
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth -= depth > 0;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return ret;
}

static void sc_doc_free(struct sc_doc *d)
{
	int i;

	for (i = 0; i < d->n; i++)
		free(d->nodes[i].text);
	free(d->nodes);
}

/* The next child of node parent after node after (or the first, after = parent); -1 at the end. */
static int sc_child(const struct sc_doc *d, int parent, int after)
{
	int i;

	for (i = after + 1; i < d->n; i++)
		if (d->nodes[i].parent == parent)
			return i;
	return -1;
}

/* The first node at line:col that is not a key; -1 if none. */
static int sc_node_at(const struct sc_doc *d, size_t line, size_t col)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (d->nodes[i].line == line && d->nodes[i].col == col && !d->nodes[i].is_key)
			return i;
	return -1;
}

/* What the schema expects for node i (a value, never a key); NULL where it expects nothing. */
static const cyaml_schema_value_t *sc_schema_of(const struct sc_doc *d, int i)
{
	const struct sc_node *nd = &d->nodes[i];
	const cyaml_schema_value_t *up;
	const cyaml_schema_field_t *f;

	if (nd->parent < 0)
		return &sc_schema;
	up = sc_schema_of(d, nd->parent);
	if (!up)
		return NULL;
	if (up->type == CYAML_SEQUENCE)
		return d->nodes[nd->parent].kind == SC_SEQ ? up->sequence.entry : NULL;
	if (up->type != CYAML_MAPPING || nd->key < 0 || d->nodes[nd->parent].kind != SC_MAP)
		return NULL;
	for (f = up->mapping.fields; f->key; f++)
		if (!strcmp(f->key, d->nodes[nd->key].text))
			return &f->value;
	return NULL;
}

/* The first key (in document order) in a mapping the schema knows but that it lacks. */
static int sc_unknown_key(const struct sc_doc *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		const cyaml_schema_value_t *up;

		if (!d->nodes[i].is_key || d->nodes[i].value < 0)
			continue;
		up = sc_schema_of(d, d->nodes[i].parent);
		if (up && up->type == CYAML_MAPPING && !sc_schema_of(d, d->nodes[i].value))
			return i;
	}
	return -1;
}

/* "sweep: frame-size" for node i: the keys leading to it. */
static void sc_path(const struct sc_doc *d, int i, char *buf, size_t len)
{
	const char *k;

	while (i >= 0 && d->nodes[i].key < 0 && d->nodes[i].parent >= 0)
		i = d->nodes[i].parent; /* a list item: name the list */
	if (i < 0 || d->nodes[i].key < 0) {
		snprintf(buf, len, "scenario");
		return;
	}
	k = d->nodes[d->nodes[i].key].text;
	if (d->nodes[i].parent > 0) {
		sc_path(d, d->nodes[i].parent, buf, len);
		if (strlen(buf) + 2 < len)
			snprintf(buf + strlen(buf), len - strlen(buf), ": %s", k);
	} else {
		snprintf(buf, len, "%s", k);
	}
}

static const char *sc_expects(const cyaml_schema_value_t *s)
{
	switch (s->type) {
	case CYAML_INT:
	case CYAML_UINT:
		return "a whole number";
	case CYAML_FLOAT:
		return "a number";
	case CYAML_BOOL:
		return "true or false";
	case CYAML_SEQUENCE:
	case CYAML_SEQUENCE_FIXED:
		return "a list";
	case CYAML_MAPPING:
		return "a mapping";
	default:
		return "a single value";
	}
}

static const char *sc_found(const struct sc_node *nd, char *buf, size_t len)
{
	char q[80];

	if (nd->kind == SC_SEQ)
		return "a list";
	if (nd->kind == SC_MAP)
		return "a mapping";
	snprintf(buf, len, "'%s'", sc_quote(nd->text, q, sizeof(q)));
	return buf;
}

/* pb_option_set() with the file's position on failure; its "--name: " becomes "name: ". */
static int sc_set(struct sc_doc *d, struct pb_config *cfg, int at, const char *name,
		  const char *value)
{
	char msg[512];

	if (!pb_option_set(cfg, name, value, msg, sizeof(msg)))
		return 0;
	return sc_fail_node(d, at, "%s", strncmp(msg, "--", 2) ? msg : msg + 2);
}

/* --- libcyaml's verdict, turned into one line at the right place ------------------------- */

struct sc_log {
	bool backtrace; /* the lines after "Backtrace:" say where, innermost first */
	bool have_pos;
	size_t line, col;
	char msg[256]; /* the first error line, for errors we have no better words for */
};

__attribute__((format(printf, 3, 0))) static void sc_log_fn(cyaml_log_t level, void *ctx,
							    const char *fmt, va_list args)
{
	struct sc_log *log = ctx;
	char line[512];
	const char *pos;

	if (level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof(line), fmt, args);
	line[strcspn(line, "\n")] = '\0';
	if (!strncmp(line, "Load: Backtrace", 15)) {
		log->backtrace = true;
	} else if (log->backtrace) {
		pos = strstr(line, "(line: ");
		if (!log->have_pos && pos &&
		    sscanf(pos, "(line: %zu, column: %zu)", &log->line, &log->col) == 2)
			log->have_pos = true;
	} else if (!log->msg[0]) {
		snprintf(log->msg, sizeof(log->msg), "%.*s", (int)sizeof(log->msg) - 1,
			 strncmp(line, "Load: ", 6) ? line : line + 6);
	}
}

/* A value libcyaml refused: a wrong shape, or a scalar that is not the expected type. */
static int sc_bad_value(struct sc_doc *d, struct pb_config *scratch, int i)
{
	const cyaml_schema_value_t *want = sc_schema_of(d, i);
	const struct sc_node *nd = &d->nodes[i];
	char path[128], found[96], q[80];

	sc_path(d, i, path, sizeof(path));
	if (!want)
		return sc_fail_node(d, i, "%s: unexpected %s", path,
				    sc_found(nd, found, sizeof(found)));
	if (nd->kind != SC_SCALAR || want->type == CYAML_MAPPING || want->type == CYAML_SEQUENCE)
		return sc_fail_node(d, i, "%s: expected %s, not %s", path, sc_expects(want),
				    sc_found(nd, found, sizeof(found)));
	if (nd->null)
		return sc_fail_node(d, i, "%s: no value given", path);
	/* a top-level option: the command line's own words for this value */
	if (nd->parent == 0 && sc_set(d, scratch, i, path, nd->text))
		return -EINVAL;
	return sc_fail_node(d, i, "%s: '%s' is not %s", path, sc_quote(nd->text, q, sizeof(q)),
			    sc_expects(want));
}

/*
 * A key given twice: the first repeat in document order is the one libcyaml stopped at (its
 * backtrace points elsewhere for these). Names the repeat, and where the first one was.
 */
static int sc_duplicate(struct sc_doc *d)
{
	char q[80];
	int i, j;

	for (i = 0; i < d->n; i++) {
		if (!d->nodes[i].is_key)
			continue;
		for (j = d->nodes[i].parent + 1; j < i; j++)
			if (d->nodes[j].is_key && d->nodes[j].parent == d->nodes[i].parent &&
			    !strcmp(d->nodes[j].text, d->nodes[i].text))
				return sc_fail_node(d, i, "'%s' is given twice (first at line %zu)",
						    sc_quote(d->nodes[i].text, q, sizeof(q)),
						    d->nodes[j].line);
	}
	return -ENOENT;
}

/* Loads buf against the schema; 0, or -EINVAL with the first problem libcyaml found. */
static int sc_validate(struct sc_doc *d, struct pb_config *scratch, const unsigned char *buf,
		       size_t len)
{
	struct sc_log log = { 0 };
	const cyaml_config_t cc = {
		.log_fn = sc_log_fn,
		.log_ctx = &log,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_NO_ALIAS,
	};
	struct sc_file *file = NULL;
	cyaml_err_t e;
	char q[80];
	int i;

	e = cyaml_load_data(buf, len, &cc, &sc_schema, (cyaml_data_t **)&file, NULL);
	if (e == CYAML_OK) {
		if (file)
			cyaml_free(&cc, &sc_schema, file, 0);
		return 0;
	}
	if (e == CYAML_ERR_OOM)
		return sc_nomem(d);
	i = log.have_pos ? sc_node_at(d, log.line, log.col) : -1;
	if (e == CYAML_ERR_INVALID_KEY) {
		int k = sc_unknown_key(d);

		if (k >= 0 && d->nodes[k].parent > 0) {
			char path[128];

			sc_path(d, d->nodes[k].parent, path, sizeof(path));
			return sc_fail_node(d, k, "%s: unknown key '%s'", path,
					    sc_quote(d->nodes[k].text, q, sizeof(q)));
		}
		if (k >= 0)
			return sc_fail_node(d, k, "unknown key '%s'",
					    sc_quote(d->nodes[k].text, q, sizeof(q)));
	}
	if (e == CYAML_ERR_INVALID_VALUE && i >= 0)
		return sc_bad_value(d, scratch, i);
	if (e == CYAML_ERR_UNEXPECTED_EVENT && sc_duplicate(d) == -EINVAL)
		return -EINVAL;
	if (log.have_pos)
		return sc_fail(d, log.line, log.col, "%s",
			       log.msg[0] ? log.msg : cyaml_strerror(e));
	return sc_fail(d, 0, 0, "%s", log.msg[0] ? log.msg : cyaml_strerror(e));
}

/* --- setting the options ------------------------------------------------------------------ */

/* The texts of list's items joined by commas, after prefix; NULL when out of memory. */
static char *sc_join(const struct sc_doc *d, int list, const char *prefix)
{
	size_t len = strlen(prefix) + 1, off;
	int c, n = 0;
	char *s;

	for (c = sc_child(d, list, list); c >= 0; c = sc_child(d, list, c))
		len += strlen(d->nodes[c].text) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	off = (size_t)snprintf(s, len, "%s", prefix);
	for (c = sc_child(d, list, list); c >= 0; c = sc_child(d, list, c))
		off += (size_t)snprintf(s + off, len - off, "%s%s", n++ ? "," : "",
					d->nodes[c].text);
	return s;
}

/* method / methods: also checks each name here, where the file can say which one is wrong. */
static int sc_set_method(struct sc_doc *d, struct pb_config *cfg, int v)
{
	char *spec = d->nodes[v].kind == SC_SEQ ? sc_join(d, v, "") : strdup(d->nodes[v].text);
	char bad[64], msg[512], q[80];
	int ret, c, at = v, off;
	unsigned int m;

	if (!spec)
		return sc_nomem(d);
	if (d->nodes[v].kind == SC_SEQ && !spec[0]) {
		free(spec);
		return sc_fail_node(d, v, "methods: the list is empty");
	}
	ret = sc_set(d, cfg, v, "method", spec);
	if (!ret && pb_methods_select(spec, NULL, 0, bad, sizeof(bad)) < 0) {
		for (c = sc_child(d, v, v); c >= 0 && d->nodes[v].kind == SC_SEQ;
		     c = sc_child(d, v, c))
			if (!strcmp(d->nodes[c].text, bad))
				at = c;
		off = snprintf(msg, sizeof(msg), "unknown method '%s'; valid: benchmark",
			       sc_quote(bad, q, sizeof(q)));
		for (m = 0; m < pb_methods_count && off > 0 && (size_t)off < sizeof(msg); m++)
			off += snprintf(msg + off, sizeof(msg) - off, ", %s", pb_methods[m]->name);
		ret = sc_fail_node(d, at, "%s", msg);
	}
	free(spec);
	return ret;
}

/* sweep: {frame-size: [64, 128]} becomes --sweep frame-size=64,128. */
static int sc_set_sweep(struct sc_doc *d, struct pb_config *cfg, int v)
{
	int k = sc_child(d, v, v), other;
	char *arg, prefix[32];
	int ret;

	if (k < 0)
		return sc_fail_node(d, v, "sweep: expected frame-size: [..] or streams: [..]");
	other = sc_child(d, v, d->nodes[k].value);
	if (other >= 0)
		return sc_fail_node(d, other, "sweep: give frame-size or streams, not both");
	snprintf(prefix, sizeof(prefix), "%s=", d->nodes[k].text);
	arg = sc_join(d, d->nodes[k].value, prefix);
	if (!arg)
		return sc_nomem(d);
	ret = sc_set(d, cfg, d->nodes[k].value, "sweep", arg);
	free(arg);
	return ret;
}

/* Every top-level key, in file order, through pb_option_set(). */
static int sc_apply(struct sc_doc *d, struct pb_config *cfg)
{
	int k, v = 0, method = -1, ret = 0;

	for (k = sc_child(d, 0, 0); k >= 0 && !ret; k = sc_child(d, 0, v)) {
		const char *key = d->nodes[k].text;

		v = d->nodes[k].value;
		if (v < 0)
			return sc_fail_node(d, k, "%s: no value given", key);
		if (!strcmp(key, "method") || !strcmp(key, "methods")) {
			if (method >= 0)
				return sc_fail_node(d, k, "give 'method' or 'methods', not both");
			method = k;
			ret = sc_set_method(d, cfg, v);
		} else if (!strcmp(key, "sweep")) {
			ret = sc_set_sweep(d, cfg, v);
		} else if (d->nodes[v].kind != SC_SCALAR) {
			ret = sc_bad_value(d, cfg, v); /* libcyaml let it through: say so anyway */
		} else if (d->nodes[v].null) {
			ret = sc_fail_node(d, v, "%s: no value given", key);
		} else {
			ret = sc_set(d, cfg, v, key, d->nodes[v].text);
		}
	}
	return ret;
}

/* --- the file ----------------------------------------------------------------------------- */

/* The whole file into *out (at most SC_MAX_BYTES); -errno with "path: strerror" if unreadable. */
static int sc_read(struct sc_doc *d, unsigned char **out, size_t *outlen)
{
	size_t len = 0, cap = 4096;
	unsigned char *buf = NULL, *nbuf;
	bool too_big = false;
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = open(d->path, O_RDONLY | O_CLOEXEC);
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
		snprintf(d->err, d->errlen, "%s: %s", d->path, strerror(-ret));
	else if (too_big)
		ret = sc_fail(d, 0, 0, "larger than %d bytes: not a scenario", SC_MAX_BYTES);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/* The document is a mapping with something in it. */
static int sc_check_root(struct sc_doc *d)
{
	char found[96];

	if (!d->n || (d->nodes[0].kind == SC_SCALAR && d->nodes[0].null) ||
	    (d->nodes[0].kind == SC_MAP && sc_child(d, 0, 0) < 0))
		return sc_fail(d, d->n ? d->nodes[0].line : 1, d->n ? d->nodes[0].col : 1,
			       "empty scenario: expected option names and values, e.g. "
			       "'duration: 5'");
	if (d->nodes[0].kind != SC_MAP)
		return sc_fail_node(d, 0,
				    "expected a mapping of option names to values (e.g. "
				    "'duration: 5'), not %s",
				    sc_found(&d->nodes[0], found, sizeof(found)));
	return 0;
}

/* Messages are one line, whatever the file or its name holds. */
static void sc_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = ' ';
}

int pb_scenario_load(const char *path, struct pb_config *cfg, char *err, size_t errlen)
{
	struct sc_doc d = { .path = path, .err = err, .errlen = errlen };
	struct pb_config tmp = *cfg; /* cfg changes only when the whole file is good */
	unsigned char *buf = NULL;
	size_t len = 0;
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = sc_read(&d, &buf, &len);
	if (!ret)
		ret = sc_scan(&d, buf, len);
	if (!ret)
		ret = sc_check_root(&d);
	if (!ret)
		ret = sc_validate(&d, &tmp, buf, len);
	if (!ret)
		ret = sc_apply(&d, &tmp);
	if (!ret)
		*cfg = tmp;
	sc_doc_free(&d);
	free(buf);
	if (errlen)
		sc_one_line(err);
	return ret;
}
