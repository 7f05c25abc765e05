/*
 * io/json.c reads a token where it lies in its buffer when it can, and
 * byte by byte across the buffer's end: these tests put every byte of a
 * document at that end in turn (white space before it moves it) and ask
 * for the same tokens, texts, numbers and places each time.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../io/json.h"
#include "unit.h"

/* Every kind of token, escapes and surrogates, and numbers read by each way there is. */
static const char document[] =
	"{\"name\":\"pkg.func\\\"x\\\\y\\u00e9\\ud83d\\ude00 a long name past eight\",\"ids\":[12,-3,0,"
	"123456789012345678,1234567890123456789,1.5,-0.25e-3,2E+2],\n"
	"\"t\":[true,false,null,{},[]],\"k\":{\"a\":-7,\"bb\":\"\"},\"f\":[303557.355178,1.996,233]}";

/*
 * The tokens of `text` after `pad` spaces, one line per token, in *out.
 * A number reads as its value or its text, whichever way it came, and
 * the way (json_next_number's 1 or 3, json_next's token) only if `ways`:
 * where a number lies across the buffer's end it comes as text.
 */
static void tokens(const char *text, size_t pad, int ways, char **out, size_t *len)
{
	size_t n = strlen(text);
	char *bytes = malloc(pad + n);
	memset(bytes, ' ', pad);
	memcpy(bytes + pad, text, n);
	struct input in;
	input_open_memory(&in, bytes, pad + n, "test");
	struct json j;
	json_begin(&j, &in);
	FILE *f = open_memstream(out, len);
	int in_numbers = 0;
	for (int done = 0; !done;) {
		int64_t v;
		/* Arrays of numbers are read as readers read them: json_next_number, json_next_int. */
		int k = in_numbers ? (in_numbers == 1 ? json_next_number(&j, &v) : json_next_int(&j, &v)) : 2;
		if (k == 1 || k == 3) {
			if (ways)
				fprintf(f, "way %d ", k);
			if (k == 1)
				fprintf(f, "number %lld", (long long)v);
			else
				fprintf(f, "number %s", j.text);
			fprintf(f, " @%llu\n", (unsigned long long)(j.token_offset - pad));
			continue;
		}
		if (k == 0) {
			fprintf(f, "end of numbers\n");
			in_numbers = 0;
			continue;
		}
		enum json_token t = json_next(&j);
		if (t == JSON_NUMBER && in_numbers) {
			if (ways)
				fprintf(f, "way json_next ");
			fprintf(f, "number %s @%llu\n", j.text, (unsigned long long)(j.token_offset - pad));
			continue;
		}
		fprintf(f, "%d @%llu line %llu", (int)t, (unsigned long long)(j.token_offset - pad),
			(unsigned long long)j.token_line);
		if (t == JSON_KEY || t == JSON_STRING || t == JSON_NUMBER)
			fprintf(f, " %zu [%s]", j.len, j.text);
		fprintf(f, "\n");
		if (t == JSON_KEY && (strcmp(j.text, "ids") == 0 || strcmp(j.text, "f") == 0)) {
			int ids = j.text[0] == 'i';
			json_next(&j); /* the '[' */
			in_numbers = ids ? 2 : 1;
		}
		done = t == JSON_END || t == JSON_FAILED;
	}
	fclose(f);
	json_end(&j);
	input_close(&in);
	free(bytes);
}

static void every_byte_at_the_buffers_end_reads_the_same(void)
{
	char *want = NULL, *got = NULL;
	size_t want_len = 0, got_len = 0;
	tokens(document, 0, 1, &got, &got_len);
	/* The reading itself, where each token lies whole in the buffer: a few of them. */
	CHECK(strstr(got, " [pkg.func\"x\\y\xc3\xa9\xf0\x9f\x98\x80 a long name past eight]\n") != NULL);
	CHECK(strstr(got, "way 1 number 123456789012345678 @") != NULL);
	CHECK(strstr(got, "way json_next number 1234567890123456789 @") != NULL); /* past 18 digits */
	CHECK(strstr(got, "way json_next number -0.25e-3 @") != NULL);
	CHECK(strstr(got, "way 3 number 303557.355178 @") != NULL);
	CHECK(strstr(got, "way 1 number 233 @") != NULL);
	CHECK(strstr(got, "\n0 @") != NULL); /* JSON_END */
	tokens(document, 0, 0, &want, &want_len);
	size_t n = strlen(document);
	int differ = 0;
	for (size_t pad = JSON_BUFFER - n - 1; pad <= JSON_BUFFER; pad++) {
		free(got);
		got = NULL;
		tokens(document, pad, 0, &got, &got_len);
		differ += got_len != want_len || memcmp(got, want, want_len) != 0;
	}
	CHECK(differ == 0);
	free(want);
	free(got);
}

/* A refusal is found at the same byte wherever the buffer ends (its messages, many, not shown). */
static void an_error_is_found_at_the_same_byte(void)
{
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	static const char *const bad[] = { "[1,2,01]", "[\"a\\x\"]", "{\"a\" 1}", "[1.]", "[\"ab\x01\"]", "[tru]" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *want = NULL, *got = NULL;
		size_t want_len = 0, got_len = 0;
		tokens(bad[i], 0, 0, &want, &want_len);
		CHECK(strstr(want, "\n-1 @") != NULL);
		size_t n = strlen(bad[i]);
		int differ = 0;
		for (size_t pad = JSON_BUFFER - n - 1; pad <= JSON_BUFFER; pad++) {
			free(got);
			got = NULL;
			tokens(bad[i], pad, 0, &got, &got_len);
			differ += got_len != want_len || memcmp(got, want, want_len) != 0;
		}
		CHECK(differ == 0);
		free(want);
		free(got);
	}
	dup2(saved, 2);
	close(saved);
	close(null);
}

const struct unit_test json_tests[] = {
	{ "every_byte_at_the_buffers_end_reads_the_same", every_byte_at_the_buffers_end_reads_the_same },
	{ "an_error_is_found_at_the_same_byte", an_error_is_found_at_the_same_byte },
	{ NULL, NULL },
};
