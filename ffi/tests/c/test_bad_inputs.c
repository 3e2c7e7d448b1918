/* The bad-input matrix (tests/fixtures/bad-inputs/matrix.json) through the
 * C ABI: every case gives its status and a message naming what was wrong,
 * or its defined result; nothing crashes, nothing leaks (ASan, valgrind).
 * JSON is read with jansson. RD_SKIP_HUGE=1 skips the 64 MiB cases (the
 * valgrind run sets it: they take minutes there and ASan covers them). */
#include <jansson.h>
#include <stdbool.h>

#include "check.h"

typedef struct {
  char *data;
  size_t len;
  size_t cap;
} buf;

/* Appends n bytes, growing the buffer geometrically, and keeps it NUL-terminated. */
static void buf_add(buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void buf_str(buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* strdup is not in C11. */
static char *dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return memcpy(p, s, n);
}

static const char *field_str(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

/* Expands a string argument: a literal or a generator. */
static buf gen_string(json_t *v) {
  buf b = {NULL, 0, 0};
  buf_add(&b, "", 0);
  if (json_is_string(v)) {
    buf_add(&b, json_string_value(v), json_string_length(v));
    return b;
  }
  const char *g = field_str(v, "$gen");
  size_t depth = (size_t)json_integer_value(json_object_get(v, "depth"));
  if (strcmp(g, "repeat") == 0) {
    const char *unit = field_str(v, "unit");
    size_t n = strlen(unit);
    size_t bytes = (size_t)json_integer_value(json_object_get(v, "bytes"));
    for (size_t i = 0; i < bytes / n; i++) buf_add(&b, unit, n);
  } else if (strcmp(g, "nest") == 0) {
    buf_str(&b, field_str(v, "prefix"));
    for (size_t i = 0; i < depth; i++) buf_str(&b, field_str(v, "open"));
    buf_str(&b, field_str(v, "middle"));
    for (size_t i = 0; i < depth; i++) buf_str(&b, field_str(v, "close"));
    buf_str(&b, field_str(v, "suffix"));
  } else if (strcmp(g, "chain") == 0) {
    for (size_t i = 0; i < depth; i++) {
      for (size_t j = 0; j < i; j++) buf_add(&b, " ", 1);
      buf_str(&b, field_str(v, i + 1 == depth ? "last" : "line"));
      buf_add(&b, "\n", 1);
    }
  } else if (strcmp(g, "hex") == 0) {
    const char *h = field_str(v, "hex");
    for (size_t i = 0; h[i] && h[i + 1]; i += 2) {
      char pair[3] = {h[i], h[i + 1], 0};
      char c = (char)strtol(pair, NULL, 16);
      buf_add(&b, &c, 1);
    }
  } else {
    fprintf(stderr, "unknown generator %s\n", g);
    exit(2);
  }
  return b;
}

/* Option JSON as text: `$text`/`$json` as is, `$float` as its bare token
 * (which JSON cannot hold), a generator as a JSON string. */
static void option_text(json_t *v, buf *out) {
  if (json_is_object(v) && (json_object_get(v, "$text") || json_object_get(v, "$json"))) {
    json_t *t = json_object_get(v, "$text");
    buf g = gen_string(t ? t : json_object_get(v, "$json"));
    buf_add(out, g.data, g.len);
    free(g.data);
  } else if (json_is_object(v) && json_object_get(v, "$float")) {
    buf_str(out, field_str(v, "$float"));
  } else if (json_is_object(v) && json_object_get(v, "$gen")) {
    buf g = gen_string(v);
    json_t *s = json_stringn(g.data, g.len);
    char *text = json_dumps(s, JSON_ENCODE_ANY);
    buf_str(out, text);
    free(text);
    json_decref(s);
    free(g.data);
  } else if (json_is_object(v)) {
    const char *k;
    json_t *item;
    bool first = true;
    buf_str(out, "{");
    json_object_foreach(v, k, item) {
      if (!first) buf_str(out, ",");
      first = false;
      json_t *key = json_string(k);
      char *kt = json_dumps(key, JSON_ENCODE_ANY);
      buf_str(out, kt);
      free(kt);
      json_decref(key);
      buf_str(out, ":");
      option_text(item, out);
    }
    buf_str(out, "}");
  } else if (json_is_array(v)) {
    size_t i;
    json_t *item;
    buf_str(out, "[");
    json_array_foreach(v, i, item) {
      if (i) buf_str(out, ",");
      option_text(item, out);
    }
    buf_str(out, "]");
  } else {
    char *t = json_dumps(v, JSON_ENCODE_ANY);
    buf_str(out, t);
    free(t);
  }
}

/* An argument as (pointer, length); NULL when absent. Freed by the caller. */
static buf arg_string(json_t *args, const char *k) {
  json_t *v = json_object_get(args, k);
  if (!v || json_is_null(v)) return (buf){NULL, 0, 0};
  return gen_string(v);
}

static buf arg_options(json_t *args, const char *k) {
  json_t *v = json_object_get(args, k);
  buf b = {NULL, 0, 0};
  if (!v || json_is_null(v)) return b;
  buf_add(&b, "", 0);
  option_text(v, &b);
  return b;
}

static const char FINGERPRINT[] =
    "{\"url\": \"/\", \"structure\": {\"interactive\": [{\"type\": \"button\", \"text\": \"Save\"}]}}";

typedef struct {
  char mode[16];
  long roots;
  char *text; /* owned */
} outcome;

/* Takes a result JSON string (freed here) and copies `mode` and the text field. */
static void take_result(char **json, const char *text_key, outcome *o) {
  json_error_t err;
  json_t *r = json_loads(*json, JSON_ALLOW_NUL, &err);
  rd_string_free(json);
  if (!r) return;
  snprintf(o->mode, sizeof o->mode, "%s", field_str(r, "mode"));
  if (text_key) o->text = dup(field_str(r, text_key));
  json_decref(r);
}

static rd_status call(const char *api, json_t *args, outcome *o) {
  rd_status st = RD_OK;
  char *out = NULL;
  buf key = arg_string(args, "key"), text = arg_string(args, "text");
  buf config = arg_options(args, "config"), options = arg_options(args, "options");
  buf a = {NULL, 0, 0}, b2 = {NULL, 0, 0}, c = {NULL, 0, 0};
  if (strcmp(api, "detector.new") == 0 || strcmp(api, "detector.detect") == 0) {
    rd_detector *d = NULL;
    st = rd_detector_new(config.data, config.len, &d);
    if (st == RD_OK && strcmp(api, "detector.detect") == 0) {
      a = arg_string(args, "previous");
      if (a.data) st = rd_detector_detect(d, key.data, key.len, a.data, a.len, options.data, options.len, &out);
      rd_string_free(&out);
      if (st == RD_OK) st = rd_detector_detect(d, key.data, key.len, text.data, text.len, options.data, options.len, &out);
      if (st == RD_OK) take_result(&out, "formattedDiff", o);
    }
    rd_detector_free(&d);
  } else if (strcmp(api, "diff.compare") == 0) {
    a = arg_string(args, "old");
    b2 = arg_string(args, "new");
    st = rd_diff_compare(a.data, a.len, b2.data, b2.len, options.data, options.len, &out);
    if (st == RD_OK) take_result(&out, "formattedDiff", o);
  } else if (strcmp(api, "expectation.validate") == 0) {
    a = arg_options(args, "expectation");
    st = rd_expectation_validate(a.data, a.len, &out);
  } else if (strcmp(api, "response.render") == 0) {
    a = arg_options(args, "response");
    b2 = arg_string(args, "tool");
    c = arg_options(args, "layers");
    st = rd_response_render(a.data, a.len, b2.data, b2.len, c.data, c.len, NULL, NULL, 0, &out);
    if (st == RD_OK) take_result(&out, "text", o);
  } else if (strcmp(api, "tree.parse") == 0) {
    bool lenient = json_is_true(json_object_get(args, "lenient"));
    st = rd_tree_parse(text.data, text.len, lenient, &out);
    if (st == RD_OK) {
      json_error_t err;
      json_t *t = json_loads(out, 0, &err);
      o->roots = t ? (long)json_array_size(t) : -1;
      json_decref(t);
      char *aria = NULL;
      st = rd_tree_print(out, strlen(out), &aria);
      if (st == RD_OK) o->text = dup(aria);
      rd_string_free(&aria);
    }
  } else if (strcmp(api, "tree.print") == 0) {
    a = arg_string(args, "json");
    st = rd_tree_print(a.data, a.len, &out);
    if (st == RD_OK) o->text = dup(out);
  } else if (strcmp(api, "tree.diff") == 0) {
    a = arg_string(args, "old");
    b2 = arg_string(args, "new");
    st = rd_tree_diff(a.data, a.len, b2.data, b2.len, options.data, options.len, &out);
    if (st == RD_OK) o->text = dup(out);
  } else if (strcmp(api, "fingerprint.parse") == 0) {
    a = arg_string(args, "json");
    st = rd_fingerprint_compare(a.data, a.len, a.data, a.len, NULL, 0, &out);
  } else if (strcmp(api, "fingerprint.compare") == 0) {
    a = arg_string(args, "baseline");
    b2 = arg_string(args, "current");
    c = arg_string(args, "threshold");
    st = rd_fingerprint_compare(a.data, a.len, b2.data, b2.len, c.data, c.len, &out);
  } else if (strcmp(api, "baseline.save") == 0 || strcmp(api, "baseline.compare") == 0) {
    rd_baseline_store *s = NULL;
    CHECK_STATUS(rd_baseline_store_new(NULL, 0, &s), RD_OK);
    if (strcmp(api, "baseline.save") == 0) {
      a = arg_string(args, "name");
      st = rd_baseline_store_save(s, a.data, a.len, S(FINGERPRINT));
    } else {
      CHECK_STATUS(rd_baseline_store_save(s, S("home"), S(FINGERPRINT)), RD_OK);
      a = arg_string(args, "against");
      st = rd_baseline_store_compare(s, a.data, a.len, S(FINGERPRINT), NULL, 0, &out);
    }
    rd_baseline_store_free(&s);
  } else {
    fprintf(stderr, "unknown api %s\n", api);
    exit(2);
  }
  if (st != RD_OK && out != NULL) {
    fprintf(stderr, "%s: an output was written on failure\n", api);
    rd_failures++;
  }
  rd_string_free(&out);
  free(key.data);
  free(text.data);
  free(config.data);
  free(options.data);
  free(a.data);
  free(b2.data);
  free(c.data);
  return st;
}

static rd_status status_of(const char *kind, const char *what) {
  if (strcmp(kind, "invalid_option") == 0) return RD_INVALID_OPTION;
  if (strcmp(kind, "parse") == 0) return strcmp(what, "JSON") == 0 ? RD_INVALID_JSON : RD_PARSE_ERROR;
  if (strcmp(kind, "input_too_large") == 0) return RD_INPUT_TOO_LARGE;
  if (strcmp(kind, "invalid_name") == 0) return RD_INVALID_NAME;
  if (strcmp(kind, "baseline_not_found") == 0) return RD_BASELINE_NOT_FOUND;
  if (strcmp(kind, "invalid_utf8") == 0) return RD_INVALID_UTF8;
  fprintf(stderr, "unknown error kind %s\n", kind);
  exit(2);
}

static bool contains(const char *hay, const char *needle) {
  return hay && strstr(hay, needle) != NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <tests/fixtures/diff>\n", argv[0]);
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/../bad-inputs/matrix.json", argv[1]);
  json_error_t jerr;
  json_t *matrix = json_load_file(path, JSON_ALLOW_NUL, &jerr);
  if (!matrix) {
    fprintf(stderr, "cannot read %s: %s\n", path, jerr.text);
    return 2;
  }
  bool skip_huge = getenv("RD_SKIP_HUGE") != NULL;
  size_t i, ran = 0, skipped_huge = 0;
  json_t *c;
  json_array_foreach(json_object_get(matrix, "cases"), i, c) {
    const char *name = field_str(c, "name");
    const char *api = field_str(c, "api");
    json_t *mine = json_object_get(c, "c");
    if (mine && json_object_get(mine, "skip")) continue;
    if (skip_huge && json_is_true(json_object_get(c, "huge"))) {
      skipped_huge++;
      continue;
    }
    json_t *want = mine ? json_object_get(mine, "expect") : json_object_get(c, "expect");
    ran++;
    outcome o = {"", -1, NULL};
    int before = rd_failures;
    rd_status st = call(api, json_object_get(c, "args"), &o);
    json_t *ok = json_object_get(want, "ok");
    if (ok) {
      if (st != RD_OK) {
        fprintf(stderr, "[%s] failed with %d: %s\n", name, (int)st, rd_last_error());
        rd_failures++;
      } else {
        const char *mode = json_string_value(json_object_get(ok, "mode"));
        if (mode && strcmp(mode, o.mode) != 0) {
          fprintf(stderr, "[%s] mode %s, want %s\n", name, o.mode, mode);
          rd_failures++;
        }
        json_t *roots = json_object_get(ok, "roots");
        if (roots && json_integer_value(roots) != o.roots) {
          fprintf(stderr, "[%s] roots %ld, want %lld\n", name, o.roots, json_integer_value(roots));
          rd_failures++;
        }
        const char *text = json_string_value(json_object_get(ok, "contains"));
        if (text && !contains(o.text, text)) {
          fprintf(stderr, "[%s] output lacks \"%s\"\n", name, text);
          rd_failures++;
        }
      }
    } else {
      const char *kind = field_str(want, "error");
      const char *what = field_str(want, "what");
      rd_status expected = status_of(kind, what);
      const char *msg = rd_last_error();
      if (st != expected) {
        fprintf(stderr, "[%s] status %d, want %d (%s): %.300s\n", name, (int)st, (int)expected, kind,
                msg ? msg : "(no message)");
        rd_failures++;
      }
      char needle[256];
      const char *field = json_string_value(json_object_get(want, "field"));
      if (field) {
        snprintf(needle, sizeof needle, "`%s`", field);
        if (!contains(msg, needle)) {
          fprintf(stderr, "[%s] message lacks field %s: %.300s\n", name, needle, msg ? msg : "");
          rd_failures++;
        }
      }
      if (*what && !contains(msg, what)) {
        fprintf(stderr, "[%s] message lacks what %s\n", name, what);
        rd_failures++;
      }
      json_t *line = json_object_get(want, "line");
      if (line) {
        snprintf(needle, sizeof needle, "line %lld", json_integer_value(line));
        if (!contains(msg, needle)) {
          fprintf(stderr, "[%s] message lacks %s: %.300s\n", name, needle, msg ? msg : "");
          rd_failures++;
        }
      }
      size_t j;
      json_t *m;
      json_array_foreach(json_object_get(want, "message"), j, m) {
        if (!contains(msg, json_string_value(m))) {
          fprintf(stderr, "[%s] message lacks \"%s\": %.300s\n", name, json_string_value(m), msg ? msg : "");
          rd_failures++;
        }
      }
    }
    if (rd_failures != before) fprintf(stderr, "  ^ case \"%s\" (%s)\n", name, api);
    free(o.text);
  }
  json_decref(matrix);
  printf("test_bad_inputs: %zu cases ran, %zu 64 MiB cases skipped (RD_SKIP_HUGE)\n", ran, skipped_huge);
  if (ran < 50) {
    fprintf(stderr, "only %zu cases ran\n", ran);
    rd_failures++;
  }
  return finish("test_bad_inputs");
}
