# merge: every rank's profile, messages and MPI_T figures unified by call
# path across MPI_COMM_WORLD (merge.h)
noinst_LTLIBRARIES += libht_merge.la
libht_merge_la_SOURCES = \
	src/merge/merge.h src/merge/peers.h src/merge/merge.c src/merge/merge_internal.h \
	src/merge/merge_paths.c src/merge/merge_tree.c src/merge/merge_local.c src/merge/merge_reduce.c \
	src/merge/merge_rank_times.c src/merge/merge_rank_profiles.c \
	src/merge/sparse_rows.c \
	src/merge/merge_summary.c src/merge/names.h src/merge/names.c \
	src/merge/mpit_merge.h src/merge/mpit_merge.c
libht_merge_la_CPPFLAGS = $(HT_LIB_CPPFLAGS)
libht_merge_la_CFLAGS = $(HT_LIB_CFLAGS)
