/* Output folders, shared by the profile writer and the trace. */
#ifndef HT_COMMON_DIRECTORY_H
#define HT_COMMON_DIRECTORY_H

/* Creates `directory` and its parents as needed.  Returns 0 or -1 with
 * errno set. */
int ht_make_directory(const char *directory);

#endif
