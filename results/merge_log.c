// SPDX-License-Identifier: MIT
/*
 * pktbench merge reads a log as well as a result file (merge.h): `kubectl logs` of a sender
 * mixes its stderr (a warning such as "reached ... of the ... packets/s asked") into the JSON
 * document on its stdout, line by line; `--prefix` puts "[pod/NAME/CONTAINER] " before each
 * line and `--timestamps` (or podman logs -t) an RFC 3339 time, and another inside a line
 * where the runtime kept it as two parts (log_entries); several pods' logs come concatenated,
 * or interleaved line by line when followed. Each pod's lines are read apart (by the prefix),
 * and each JSON object in them with a "results" array is one result set.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "merge.h"

/* One source of lines (a pod's prefix, or none) and the document open in it. */
struct log_src {
	char prefix[PB_MERGE_NAME_LEN];
	struct json_tokener *tok; /* NULL: no document open */
	char *doc;		  /* the document's lines so far: its text, hashed by merge */
	size_t len, cap;
	unsigned int line; /* where the document began */
	char *part;	   /* a line's first parts, its end not come yet (log_entry) */
	size_t plen, pcap;
	bool pend;
};

struct log_scan {
	const char *name;
	struct log_src *src;
	unsigned int nsrc;
	unsigned int sets, other; /* result sets merged; other JSON objects passed over */
	char *err;
	size_t errlen;
};

/* The whole text is one JSON value and nothing else: a result file, read as before. */
static bool log_whole_json(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	size_t len = strlen(text), end;
	bool whole = false;

	if (!tok)
		return true; /* the plain path then reports the lack of memory */
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (o) {
		for (end = json_tokener_get_parse_end(tok); end < len && isspace((unsigned char)text[end]);
		     end++)
			;
		whole = end == len;
	}
	json_object_put(o);
	json_tokener_free(tok);
	return whole;
}

/* "[pod/NAME/CONTAINER] " (kubectl logs --prefix): its inside into src, the rest's start. */
static const char *log_prefix(const char *s, size_t n, char *src, size_t size)
{
	size_t i;

	src[0] = '\0';
	if (n < 4 || s[0] != '[')
		return s;
	for (i = 1; i < n && s[i] != ']'; i++)
		if (isspace((unsigned char)s[i]) || s[i] == '[')
			return s;
	if (i + 1 >= n || s[i + 1] != ' ' || !memchr(s + 1, '/', i - 1) ||
	    i - 1 >= size)
		return s;
	memcpy(src, s + 1, i - 1);
	src[i - 1] = '\0';
	return s + i + 2;
}

/*
 * "2026-12-01T16:30:00.123456789Z " (podman logs -t, kubectl logs --timestamps): RFC 3339
 * with any fraction, Z or an offset, and the space after it; its length, or 0 when s does not
 * begin with one.
 */
static size_t log_stamp(const char *s, const char *end)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd";
	size_t i, f, n = (size_t)(end - s);

	for (i = 0; i < sizeof(form) - 1; i++)
		if (i >= n || (form[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != form[i]))
			return 0;
	if (i < n && s[i] == '.') {
		for (f = ++i; i < n && isdigit((unsigned char)s[i]); i++)
			;
		if (i == f)
			return 0;
	}
	if (i < n && s[i] == 'Z')
		i++;
	else if (i + 6 <= n && (s[i] == '+' || s[i] == '-') && isdigit((unsigned char)s[i + 1]) &&
		 isdigit((unsigned char)s[i + 2]) && s[i + 3] == ':' &&
		 isdigit((unsigned char)s[i + 4]) && isdigit((unsigned char)s[i + 5]))
		i += 6;
	else
		return 0;
	return i < n && s[i] == ' ' ? i + 1 : 0;
}

/*
 * A runtime keeps a line as parts where its read of the container's output ended (podman's
 * conmon reads 8 KiB at a time: a line across two reads is two parts, however short), and a
 * timestamped log gives each part its own stamp on the same line: podman logs -t, and the
 * kubelet for kubectl logs --timestamps (kubectl's --prefix only begins the line). The second
 * stamp falls anywhere, inside a number or a key. A stamp of the line's own zone, no earlier
 * (to the second) than the one the line began with, is the runtime's and is taken out.
 */
static bool log_part_stamp(const char *p, size_t k, const char *lead, size_t leadlen)
{
	/* the zone: "Z " or "+hh:mm " */
	size_t z = lead[leadlen - 2] == 'Z' ? 2 : 7;

	return k >= z && !memcmp(p + k - z, lead + leadlen - z, z) && memcmp(p, lead, 19) >= 0;
}

static struct log_src *log_source(struct log_scan *sc, const char *prefix)
{
	struct log_src *s;
	unsigned int i;

	for (i = 0; i < sc->nsrc; i++)
		if (!strcmp(sc->src[i].prefix, prefix))
			return &sc->src[i];
	s = realloc(sc->src, sizeof(*s) * (sc->nsrc + 1));
	if (!s)
		return NULL;
	sc->src = s;
	s = &sc->src[sc->nsrc++];
	memset(s, 0, sizeof(*s));
	snprintf(s->prefix, sizeof(s->prefix), "%s", prefix);
	return s;
}

static int log_append(struct log_src *s, const char *p, size_t n)
{
	char *d;

	if (s->len + n + 2 > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;

		while (cap < s->len + n + 2)
			cap *= 2;
		d = realloc(s->doc, cap);
		if (!d)
			return -ENOMEM;
		s->doc = d;
		s->cap = cap;
	}
	memcpy(s->doc + s->len, p, n);
	s->len += n;
	s->doc[s->len++] = '\n';
	s->doc[s->len] = '\0';
	return 0;
}

static void log_close(struct log_src *s)
{
	if (s->tok) /* json-c's free takes no NULL */
		json_tokener_free(s->tok);
	s->tok = NULL;
	s->len = 0;
}

static int log_bad(struct log_scan *sc, const struct log_src *s, unsigned int line, const char *what)
{
	snprintf(sc->err, sc->errlen, "%s:%u%s%s%s: %s", sc->name, line, s->prefix[0] ? " [" : "",
		 s->prefix, s->prefix[0] ? "]" : "", what);
	return -EINVAL;
}

/* A document complete: merged when it is a result set, passed over when some other object. */
static int log_document(struct log_scan *sc, struct pb_merge_result *res, struct log_src *s,
			struct json_object *o)
{
	struct json_object *rows;
	char name[3 * PB_MERGE_NAME_LEN]; /* merge keeps PB_MERGE_NAME_LEN - 1 bytes of it */
	int ret;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "results", &rows)) {
		sc->other++;
		return 0;
	}
	/* where it began, so a message or a row behind its pace names the pod and the line */
	snprintf(name, sizeof(name), "%s:%u%s%s%s", sc->name, s->line, s->prefix[0] ? " [" : "",
		 s->prefix, s->prefix[0] ? "]" : "");
	ret = pb_merge_add_json(res, s->doc, name, sc->err, sc->errlen);
	sc->sets += !ret;
	return ret;
}

/* One line of source s: opens, continues or ends its document, or is another line. */
static int log_line(struct log_scan *sc, struct pb_merge_result *res, struct log_src *s,
		    const char *p, size_t n, unsigned int line)
{
	struct json_object *o;
	enum json_tokener_error e;
	size_t end;
	int ret;

	if (!s->tok) {
		if (!n || p[0] != '{')
			return 0; /* stderr, or anything else a pod says */
		s->tok = json_tokener_new();
		if (!s->tok)
			return -ENOMEM;
		s->line = line;
	} else if (!n || !(isspace((unsigned char)p[0]) || p[0] == '}' || p[0] == ']')) {
		/*
		 * Inside a document every line is indented or closes it (pretty JSON, no newline
		 * inside a string): any other is a line of stderr that came in between.
		 */
		return 0;
	}
	ret = log_append(s, p, n);
	if (ret)
		return ret;
	o = json_tokener_parse_ex(s->tok, p, (int)n);
	e = json_tokener_get_error(s->tok);
	if (!o && e == json_tokener_continue) {
		/* the newline the line ended with: tokens on two lines stay apart */
		o = json_tokener_parse_ex(s->tok, "\n", 1);
		e = json_tokener_get_error(s->tok);
		if (!o && e == json_tokener_continue)
			return 0;
		end = n; /* whatever ended the value, it was not text of this line */
	} else {
		end = json_tokener_get_parse_end(s->tok);
	}
	if (!o || e != json_tokener_success) {
		char what[160];

		snprintf(what, sizeof(what), "not JSON in the document begun at line %u: %s",
			 s->line, json_tokener_error_desc(e));
		return log_bad(sc, s, line, what);
	}
	while (end < n && isspace((unsigned char)p[end]))
		end++;
	if (end < n)
		ret = log_bad(sc, s, line, "text after the end of a JSON document, on its line");
	else
		ret = log_document(sc, res, s, o);
	json_object_put(o);
	log_close(s);
	return ret;
}

/*
 * Whether p (n bytes) is what a line of JSON may hold: its tokens (strings, numbers, true,
 * false, null, {}[]:,) and blanks. prefix: the line may go on after it (a string, a number or
 * a word cut at the end). A part of a line with another stream's line joined to it is not
 * ("12pktbench: ...").
 */
static bool log_json_text(const char *p, size_t n, bool prefix)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t i = 0, j, w, l;

	while (i < n) {
		if (isspace((unsigned char)p[i]) || strchr("{}[]:,", p[i])) {
			i++;
			continue;
		}
		if (p[i] == '"') {
			for (i++; i < n && p[i] != '"'; i++)
				if (p[i] == '\\')
					i++;
			if (i >= n)
				return prefix;
			i++;
			continue;
		}
		j = i;
		if (p[j] == '-' || isdigit((unsigned char)p[j])) {
			j += p[j] == '-';
			while (j < n && (isdigit((unsigned char)p[j]) || strchr(".eE+-", p[j])))
				j++;
			if (j == i + 1 && p[i] == '-' && !prefix)
				return false;
		} else {
			for (w = 0; w < 3; w++) {
				l = strlen(words[w]);
				if (n - i >= l ? !memcmp(p + i, words[w], l)
					       : prefix && !memcmp(p + i, words[w], n - i))
					break;
			}
			if (w == 3)
				return false;
			j = i + (n - i < l ? n - i : l);
		}
		/* a token ends at a blank or a mark, or at the line's end */
		if (j < n && !isspace((unsigned char)p[j]) && !strchr("{}[]:,", p[j]))
			return false;
		i = j;
	}
	return true;
}

static int log_part_add(struct log_src *s, const char *p, size_t n)
{
	char *b;

	if (s->plen + n + 1 > s->pcap) {
		size_t cap = s->pcap ? s->pcap : 256;

		while (cap < s->plen + n + 1)
			cap *= 2;
		b = realloc(s->part, cap);
		if (!b)
			return -ENOMEM;
		s->part = b;
		s->pcap = cap;
	}
	memcpy(s->part + s->plen, p, n);
	s->plen += n;
	s->part[s->plen] = '\0';
	s->pend = true;
	return 0;
}

/* The line held in s->part, its end come: read as a line, and the part let go. */
static int log_part_line(struct log_scan *sc, struct pb_merge_result *res, struct log_src *s,
			 unsigned int line)
{
	s->pend = false;
	return log_line(sc, res, s, s->part, s->plen, line);
}

/*
 * One entry of source s, as a stamped log gives it: a whole line (complete), or a part of one
 * whose end a later entry brings. Between a part and its end another stream's whole line may
 * come (podman logs 2>&1: a stderr line inside a stdout line conmon read in two parts): an
 * entry that does not make the held part a line of JSON, while the part could begin one, is
 * that other line.
 */
static int log_entry(struct log_scan *sc, struct pb_merge_result *res, struct log_src *s,
		     const char *e, size_t n, bool complete, unsigned int line)
{
	int ret;

	if (!s->pend && complete)
		return log_line(sc, res, s, e, n, line);
	if (!s->pend || !complete) {
		if (!s->pend)
			s->plen = 0;
		return log_part_add(s, e, n);
	}
	ret = log_part_add(s, e, n);
	if (ret)
		return ret;
	if (log_json_text(s->part, s->plen, false) || !log_json_text(s->part, s->plen - n, true))
		return log_part_line(sc, res, s, line);
	/* the other stream's line, and the part still waits for its end */
	s->plen -= n;
	s->part[s->plen] = '\0';
	return log_line(sc, res, s, e, n, line);
}

/*
 * A stamped line: its entries, split where a later part's stamp begins (log_part_stamp); all
 * but the last are parts.
 */
static int log_entries(struct log_scan *sc, struct pb_merge_result *res, struct log_src *s,
		       const char *p, size_t n, const char *lead, size_t leadlen,
		       unsigned int line)
{
	size_t r = 0, from = 0, k;
	int ret;

	while (r < n) {
		if (r && isdigit((unsigned char)p[r]) && n - r > 4 && p[r + 4] == '-' &&
		    (k = log_stamp(p + r, p + n)) && log_part_stamp(p + r, k, lead, leadlen)) {
			ret = log_entry(sc, res, s, p + from, r - from, false, line);
			if (ret)
				return ret;
			r += k;
			from = r;
			continue;
		}
		r++;
	}
	return log_entry(sc, res, s, p + from, n - from, true, line);
}

int pb_merge_add_text(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen)
{
	struct log_scan sc = { .name = name, .err = err, .errlen = errlen };
	const char *p = text, *nl, *body, *end, *lead, *next;
	char prefix[PB_MERGE_NAME_LEN];
	size_t stamp, n;
	unsigned int line = 0, i;
	int ret = 0;

	if (log_whole_json(text))
		return pb_merge_add_json(res, text, name, err, errlen);
	for (; !ret && *p; p = next) {
		struct log_src *s;

		line++;
		nl = strchr(p, '\n');
		end = nl ? nl : p + strlen(p);
		/* past the line as it is: a CR taken off the last line's end is not the next line */
		next = nl ? nl + 1 : end;
		if (end > p && end[-1] == '\r')
			end--;
		body = log_prefix(p, (size_t)(end - p), prefix, sizeof(prefix));
		lead = body;
		stamp = log_stamp(body, end);
		body += stamp;
		s = log_source(&sc, prefix);
		if (!s) {
			ret = -ENOMEM;
			break;
		}
		n = (size_t)(end - body);
		ret = stamp ? log_entries(&sc, res, s, body, n, lead, stamp, line)
			    : log_entry(&sc, res, s, body, n, true, line);
	}
	/* a part whose end never came: a line as it is */
	for (i = 0; !ret && i < sc.nsrc; i++)
		if (sc.src[i].pend)
			ret = log_part_line(&sc, res, &sc.src[i], line);
	for (i = 0; !ret && i < sc.nsrc; i++)
		if (sc.src[i].tok)
			ret = log_bad(&sc, &sc.src[i], sc.src[i].line,
				      "a JSON document that does not end (its log cut short?)");
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (!ret && !sc.sets) {
		snprintf(err, errlen,
			 "%s: not JSON, and no line of it begins a pktbench result set (%u other "
			 "JSON objects)",
			 name, sc.other);
		ret = -EINVAL;
	}
	if (ret)
		pb_merge_one_line(err);
	for (i = 0; i < sc.nsrc; i++) {
		log_close(&sc.src[i]);
		free(sc.src[i].doc);
		free(sc.src[i].part);
	}
	free(sc.src);
	return ret;
}
