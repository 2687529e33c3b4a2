// SPDX-License-Identifier: GPL-2.0
/* Unit tests of scripts/tools/lib/json.c, the reader of the guest tools' JSON. */
#include "check.h"
#include "lib/json.h"

static struct json *parse(const char *text, char *err, size_t errlen)
{
	return json_parse(text, strlen(text), err, errlen);
}

/* text is refused with a message that contains want */
static int refused(const char *text, const char *want)
{
	char err[256];
	struct json *v = parse(text, err, sizeof(err));

	if (v) {
		json_free(v);
		fprintf(stderr, "  accepted: %s\n", text);
		return 0;
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "  %s: message '%s', expected '%s'\n", text, err, want);
		return 0;
	}
	return 1;
}

TEST(test_values_of_every_type)
{
	char err[256];
	struct json *v = parse(" {\"n\": -12.5e1, \"z\": 0, \"s\": \"ab\", \"t\": true, \"f\": false,"
			       " \"nul\": null, \"a\": [1, [2, {}], []], \"o\": {\"k\": \"v\"}} \n",
			       err, sizeof(err));
	const struct json *a;

	CHECK(v != NULL);
	if (!v) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_EQ_INT(v->type, JSON_OBJECT);
	CHECK_EQ_INT(v->n, 8);
	CHECK_NEAR(*json_number(v, "n"), -125.0, 0);
	CHECK_NEAR(*json_number(v, "z"), 0.0, 0);
	CHECK_STR(json_string(v, "s"), "ab");
	CHECK_EQ_INT(json_get(v, "t")->type, JSON_TRUE);
	CHECK_EQ_INT(json_get(v, "f")->type, JSON_FALSE);
	CHECK_EQ_INT(json_get(v, "nul")->type, JSON_NULL);
	a = json_get(v, "a");
	CHECK_EQ_INT(a->type, JSON_ARRAY);
	CHECK_EQ_INT(a->n, 3);
	CHECK_NEAR(json_at(a, 0)->number, 1.0, 0);
	CHECK_EQ_INT(json_at(json_at(a, 1), 1)->type, JSON_OBJECT);
	CHECK_EQ_INT(json_at(json_at(a, 1), 1)->n, 0);
	CHECK_EQ_INT(json_at(a, 2)->n, 0);
	CHECK(json_at(a, 3) == NULL);
	CHECK_STR(json_string(json_get(v, "o"), "k"), "v");
	json_free(v);
}

TEST(test_lookups_of_the_wrong_type_are_null)
{
	char err[256];
	struct json *v = parse("{\"n\": 1, \"s\": \"x\", \"n\": 2}", err, sizeof(err));

	CHECK(v != NULL);
	if (!v)
		return;
	CHECK(json_number(v, "s") == NULL);
	CHECK(json_string(v, "n") == NULL);
	CHECK(json_get(v, "missing") == NULL);
	/* a repeated member: the first */
	CHECK_NEAR(*json_number(v, "n"), 1.0, 0);
	CHECK(json_get(json_get(v, "n"), "x") == NULL);
	CHECK(json_at(v, 0) == NULL);
	CHECK(json_get(NULL, "x") == NULL);
	json_free(v);
}

TEST(test_string_escapes)
{
	char err[256];
	struct json *v = parse("[\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", \"\\ud83d\\ude00\", \"\\u0041\"]",
			       err, sizeof(err));

	CHECK(v != NULL);
	if (!v) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK_STR(json_at(v, 0)->string, "q\" b\\ s/ \b\f\n\r\t");
	CHECK_STR(json_at(v, 1)->string, "\xc3\xa9\xe2\x82\xac");
	CHECK_STR(json_at(v, 2)->string, "\xf0\x9f\x98\x80");
	CHECK_STR(json_at(v, 3)->string, "A");
	json_free(v);
}

TEST(test_numbers)
{
	char err[256];
	struct json *v = parse("[0, -0, 1.5, 1e3, 2E-2, 9.900000, 123456789012]", err, sizeof(err));

	CHECK(v != NULL);
	if (!v)
		return;
	CHECK_NEAR(json_at(v, 2)->number, 1.5, 0);
	CHECK_NEAR(json_at(v, 3)->number, 1000.0, 0);
	CHECK_NEAR(json_at(v, 4)->number, 0.02, 1e-15);
	CHECK_NEAR(json_at(v, 5)->number, 9.9, 1e-12);
	CHECK_NEAR(json_at(v, 6)->number, 123456789012.0, 0);
	json_free(v);
	CHECK(refused("01", "bad number"));
	CHECK(refused("1.", "no digit after the point"));
	CHECK(refused(".5", "unexpected character"));
	CHECK(refused("1e", "no digit in the exponent"));
	CHECK(refused("-", "bad number"));
	CHECK(refused("+1", "unexpected character"));
	CHECK(refused("0x10", "text after the value"));
	CHECK(refused("NaN", "unexpected character"));
}

TEST(test_malformed_text_is_refused_with_its_offset)
{
	char err[256];

	CHECK(refused("", "end of the text"));
	CHECK(refused("  ", "end of the text at byte 2"));
	CHECK(refused("{\"a\": 1,}", "expected a member name at byte 8"));
	CHECK(refused("[1,]", "unexpected character at byte 3"));
	CHECK(refused("[1 2]", "expected ',' or ']'"));
	CHECK(refused("{\"a\" 1}", "expected ':'"));
	CHECK(refused("{\"a\": 1", "expected ',' or '}'"));
	CHECK(refused("{1: 2}", "expected a member name"));
	CHECK(refused("\"abc", "unterminated string"));
	CHECK(refused("\"a\tb\"", "control character"));
	CHECK(refused("\"\\x\"", "bad escape"));
	CHECK(refused("\"\\u12g4\"", "bad \\u escape"));
	CHECK(refused("\"\\ud83d\"", "without its low half"));
	CHECK(refused("\"\\ud83d\\u0041\"", "without its low half"));
	CHECK(refused("\"\\ude00\"", "lone low surrogate"));
	CHECK(refused("\"\\u0000\"", "NUL"));
	CHECK(refused("tru", "unexpected character"));
	CHECK(refused("nul", "unexpected character"));
	CHECK(refused("{} {}", "text after the value at byte 3"));
	CHECK(refused("[\"a\"]x", "text after the value"));
	/* a NUL byte inside the text is not whitespace */
	CHECK(json_parse("[1]\0", 4, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "text after the value") != NULL);
	/* len bounds the text: no read past it */
	CHECK(json_parse("[1, 2]", 4, err, sizeof(err)) == NULL);
}

TEST(test_nesting_is_limited)
{
	char text[2 * (JSON_MAX_DEPTH + 1) + 1], err[256];
	struct json *v;
	int i;

	for (i = 0; i < JSON_MAX_DEPTH; i++) {
		text[i] = '[';
		text[2 * JSON_MAX_DEPTH - 1 - i] = ']';
	}
	text[2 * JSON_MAX_DEPTH] = '\0';
	v = parse(text, err, sizeof(err));
	CHECK(v != NULL);
	json_free(v);
	for (i = 0; i <= JSON_MAX_DEPTH; i++) {
		text[i] = '[';
		text[2 * JSON_MAX_DEPTH + 1 - i] = ']';
	}
	text[2 * (JSON_MAX_DEPTH + 1)] = '\0';
	CHECK(refused(text, "nested deeper than 64"));
}
