/* What archive_par.c's decoding hands to the merge, and how: a share of
 * the locations read into batches of decoded records.  A share is decoded
 * by the threads of this process, or (hooktrace-analyze-mpi,
 * archive_mpi.c) by another MPI rank that sends its batches. */
#ifndef HT_ANALYZE_ARCHIVE_SHARE_H
#define HT_ANALYZE_ARCHIVE_SHARE_H

#include <otf2/otf2.h>
#include <stdint.h>

#include "analyze/archive_events.h"
#include "analyze/rankmap.h"

/* Records per batch and batches per MPI rank: what is in flight between a
 * rank and the merge is at most BATCHES * BATCH_RECORDS records (about
 * 0.8 MB), whatever the trace's length.  A share decoded by this
 * process's threads has a longer ring (archive_par.c, local_batches).  A batch is handed over under a
 * lock (or in one MPI message), once per 4096 events. */
#define BATCH_RECORDS 4096u
#define BATCHES 4u

enum record_type {
    REC_SEND, REC_ISEND, REC_ISEND_COMPLETE, REC_RECV, REC_IRECV_REQUEST, REC_IRECV,
    REC_CANCELLED, REC_ENTER, REC_LEAVE, REC_COLLECTIVE_BEGIN, REC_COLLECTIVE_END
};

/* One event as its callback received it.  peer: receiver, sender, region
 * or root; length: also a collective's bytes sent; request: also its bytes
 * received. */
struct record {
    uint64_t time, location, length, request;
    uint32_t peer, comm, tag;
    uint8_t type, op;
};

enum reader_failure { READER_OK, READER_SETUP, READER_OPEN, READER_READ };

/* How a share ended: what the merge reports if it failed. */
struct share_end {
    enum reader_failure failure;
    char doing[64];         /* READER_SETUP: what failed */
    uint32_t failed_index;  /* READER_OPEN: the location (list index) */
    int failed_status;      /* READER_OPEN: open_event_reader's status */
    OTF2_ErrorCode rc;
    struct otf2_errors errors;
};

struct batch {
    uint32_t n;
    uint32_t last;    /* the share's last batch (then `end` holds) */
    uint64_t skipped; /* events read before these records and not forwarded */
    struct share_end end;
    struct record records[BATCH_RECORDS];
};

struct reader;
/* Hands the batch being filled on (last: the share is read) and gives the
 * next one to fill. */
typedef void share_publish(struct reader *r, int last);
/* The merge's side: the next batch with records (the current one given
 * back if release), or NULL once the share is read; adds the events the
 * reader skipped to *events. */
typedef struct batch *share_next(struct reader *r, int release, uint64_t *events);

struct share_pool;

struct reader {
    const char *anchor;
    const struct rankmap *ranks;
    uint32_t *locations; /* indexes into the location list */
    uint32_t nlocations;
    share_publish *publish;
    share_next *next;
    int rank;            /* archive_mpi.c: the rank reading the share */
    void *requests;      /* archive_mpi.c: its pending sends */
    struct share_pool *pool; /* archive_par.c: the threads that decode it */
    struct batch *batches; /* nbatches of them, a ring */
    uint32_t nbatches;
    /* Batches handed over, batches given back, no more will come (under
     * the pool's lock for a share of this process); a thread decodes it
     * now. */
    uint64_t published, released;
    int done, busy;
    /* The decoder's, one thread at a time: OTF2's reader of the share,
     * resumed batch after batch by whichever thread is free. */
    OTF2_Reader *otf2;
    OTF2_GlobalEvtReader *events;
    int opened;
    struct batch *fill;
    uint64_t appended;
    struct share_end end;
};

/* Reads the share into batches through r->publish (the last one too). */
void archive_read_share(struct reader *r);

/* Registers the callbacks that append each event to r's batches
 * (archive_records.c). */
OTF2_ErrorCode archive_register_records(OTF2_Reader *reader, OTF2_GlobalEvtReader *events,
                                        struct reader *r);

/* The distribution of the shares over MPI ranks (archive_mpi.c); NULL in
 * a single process. */
struct archive_distribution {
    unsigned shares;      /* one per rank */
    unsigned self;        /* this rank's share; 0 merges */
    share_publish *publish; /* ranks other than 0: send a batch */
    share_next *next;       /* rank 0: receive one */
};
extern const struct archive_distribution *archive_distribution;

#endif
