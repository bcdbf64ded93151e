// SPDX-License-Identifier: MIT
/* --stream: see stream.h. */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "box.h"
#include "stream.h"
#include "writers.h"

int pb_stream_open(struct pb_stream *s, const char *path, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (!strcmp(path, "-")) {
		s->f = stdout;
		return 0;
	}
	s->f = fopen(path, "w");
	if (!s->f) {
		int e = errno;

		snprintf(err, errlen, "--stream %s: %s", path, strerror(e));
		return -e;
	}
	s->own = true;
	return 0;
}

int pb_stream_close(struct pb_stream *s)
{
	if (s->own && s->f && fclose(s->f) && !s->error)
		s->error = -errno;
	s->f = NULL;
	return s->error;
}

/* One object on one line, flushed: a reader following the file sees each as it comes. */
static void stream_put(struct pb_stream *s, struct json_object *o)
{
	const char *text;

	if (!o)
		s->error = s->error ?: -ENOMEM;
	if (!o || s->error)
		goto out;
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		s->error = -ENOMEM;
		goto out;
	}
	fputs(text, s->f);
	fputc('\n', s->f);
	s->error = pb_stream_status(s->f);
out:
	json_object_put(o);
}

static void stream_add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* An interval from a to b: counts are differences of the runner's cumulative samples. */
static struct json_object *stream_interval_obj(const char *method, const char *point,
					       uint32_t run_id, const struct pb_sample *a,
					       const struct pb_sample *b, bool last)
{
	struct json_object *o = json_object_new_object();
	double dt = b->t - a->t;
	uint64_t sent = b->sent - a->sent;
	bool deliv = b->delivered_known && (a->delivered_known || !a->t);
	uint64_t delivered = deliv ? b->delivered - a->delivered : 0;

	if (!o)
		return NULL;
	stream_add(o, "type", json_object_new_string("interval"));
	stream_add(o, "method", json_object_new_string(method));
	stream_add(o, "point", point[0] ? json_object_new_string(point) : NULL);
	stream_add(o, "run_id", json_object_new_int64(run_id));
	stream_add(o, "t_s", json_object_new_double(b->t));
	stream_add(o, "dt_s", json_object_new_double(dt));
	stream_add(o, "frames_sent", json_object_new_uint64(sent));
	stream_add(o, "frames_delivered", deliv ? json_object_new_uint64(delivered) : NULL);
	stream_add(o, "pps", dt > 0 ? json_object_new_double(sent / dt) : NULL);
	stream_add(o, "delivered_pps",
		   deliv && dt > 0 ? json_object_new_double(delivered / dt) : NULL);
	/* --latency: the probes that arrived in the interval, and their latency */
	stream_add(o, "probes", b->lat_known ? json_object_new_uint64(b->lat_n) : NULL);
	stream_add(o, "latency_p50_us",
		   b->lat_known && b->lat_n ? json_object_new_double(b->lat_p50_us) : NULL);
	stream_add(o, "latency_p99_us",
		   b->lat_known && b->lat_n ? json_object_new_double(b->lat_p99_us) : NULL);
	stream_add(o, "last", json_object_new_boolean(last));
	return o;
}

void pb_stream_interval(struct pb_stream *s, const char *method, const char *point, uint32_t run_id,
			const struct pb_sample *prev, const struct pb_sample *now, bool link_up)
{
	struct json_object *o;

	if (!s->f)
		return;
	o = stream_interval_obj(method, point, run_id, prev, now, false);
	if (o)
		stream_add(o, "link_up", json_object_new_boolean(link_up));
	stream_put(s, o);
}

void pb_stream_row(struct pb_stream *s, const struct pb_result *r)
{
	struct pb_sample last = { 0 }, end = { 0 };
	struct json_object *row, *o;

	if (!s->f)
		return;
	/* the row's own samples are the intervals its run streamed (also under --repeat) */
	if (r->nsamples)
		last = r->samples[r->nsamples - 1];
	end.t = r->duration_s > last.t ? r->duration_s : last.t;
	end.sent = r->frames_sent;
	end.delivered = r->frames_delivered;
	end.delivered_known = r->delivered_known;
	if (r->measured || r->status == PB_STATUS_OK)
		stream_put(s,
			   stream_interval_obj(r->method, r->point, r->run_id, &last, &end, true));
	row = pb_json_row(r, false);
	o = json_object_new_object();
	if (o && row) {
		stream_add(o, "type", json_object_new_string("row"));
		stream_add(o, "row", row);
		row = NULL;
	}
	json_object_put(row);
	stream_put(s, o);
}

void pb_stream_set(struct pb_stream *s, const struct pb_report *rep)
{
	struct json_object *set, *o;

	if (!s->f)
		return;
	set = pb_json_set(rep);
	o = json_object_new_object();
	if (o && set) {
		stream_add(o, "type", json_object_new_string("set"));
		stream_add(o, "set", set);
		set = NULL;
	}
	json_object_put(set);
	stream_put(s, o);
}
