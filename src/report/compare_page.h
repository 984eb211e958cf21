/* The compare and scaling page, generated at build time by
 * src/report/embed.py from src/report/web/compare.html (compare_page.c in
 * the build tree): the page up to where its JSON goes, and the rest. */
#ifndef HT_REPORT_COMPARE_PAGE_H
#define HT_REPORT_COMPARE_PAGE_H

#include <stddef.h>

extern const unsigned char ht_compare_page_head[];
extern const size_t ht_compare_page_head_len;
extern const unsigned char ht_compare_page_tail[];
extern const size_t ht_compare_page_tail_len;

#endif
