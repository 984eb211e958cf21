/* The HTML report's page, generated at build time by src/report/embed.py
 * from src/report/web (html_page.c in the build tree): the page up to where
 * the profile JSON goes, and the rest.  The library and hooktrace-report
 * carry it whole and read no file at run time. */
#ifndef HT_OUTPUT_HTML_PAGE_H
#define HT_OUTPUT_HTML_PAGE_H

#include <stddef.h>

extern const unsigned char ht_report_page_head[];
extern const size_t ht_report_page_head_len;
extern const unsigned char ht_report_page_tail[];
extern const size_t ht_report_page_tail_len;

#endif
