/* The x86-64 length decoder that proves hook calls (src/throttle/insn.c):
 * encodings compilers emit, with their lengths, branch targets and
 * operands; then, where objdump is installed, every instruction of the C
 * library's text decoded to the length objdump gives it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "throttle/insn.h"

#define AT 0x401000u

static struct ht_insn decode(const char *hex, int *length)
{
    uint8_t bytes[32];
    size_t n = 0;
    unsigned v;
    int used;
    while (n < sizeof bytes && sscanf(hex, " %2x%n", &v, &used) == 1) {
        bytes[n++] = (uint8_t)v;
        hex += used;
    }
    /* Followed by nops, as in real code: a length must not run past. */
    for (size_t i = n; i < sizeof bytes; i++)
        bytes[i] = 0x90;
    struct ht_insn in;
    *length = ht_insn_decode(bytes, sizeof bytes, AT, &in) ? in.length : -1;
    return in;
}

static void lengths(void)
{
    static const struct {
        const char *hex;
        int length;
    } table[] = {
        {"48 8d 3d 10 00 00 00", 7},          /* lea 0x10(%rip),%rdi */
        {"4c 8d 25 f0 ff ff ff", 7},          /* lea -0x10(%rip),%r12 */
        {"bf 00 10 40 00", 5},                /* mov $0x401000,%edi */
        {"48 c7 c7 00 10 40 00", 7},          /* mov $0x401000,%rdi */
        {"48 bf 00 10 40 00 00 00 00 00", 10}, /* movabs */
        {"4c 89 e7", 3},                      /* mov %r12,%rdi */
        {"48 8b 74 24 18", 5},                /* mov 0x18(%rsp),%rsi */
        {"48 8b 2d c8 2d 00 00", 7},          /* mov 0x2dc8(%rip),%rbp: GOT */
        {"e8 00 00 00 00", 5},                /* call */
        {"ff 15 00 00 00 00", 6},             /* call *(%rip) */
        {"ff 25 00 00 00 00", 6},             /* jmp *(%rip) */
        {"3e ff e0", 3},                      /* notrack jmp *%rax */
        {"74 05", 2}, {"0f 84 00 01 00 00", 6}, {"eb fe", 2}, {"e9 00 00 00 00", 5},
        {"f3 0f 1e fa", 4},                   /* endbr64 */
        {"66 2e 0f 1f 84 00 00 00 00 00", 10}, /* cs nopw 0x0(%rax,%rax,1) */
        {"0f 1f 44 00 00", 5}, {"66 90", 2}, {"c3", 1}, {"f3 c3", 2},
        {"48 81 ec 00 01 00 00", 7},          /* sub $0x100,%rsp */
        {"66 81 7c 24 08 34 12", 7},          /* cmpw $0x1234,0x8(%rsp) */
        {"f6 c3 01", 3}, {"f7 c3 01 00 00 00", 6}, /* test $imm,%bl / %ebx */
        {"c5 fb 10 05 00 00 00 00", 8},       /* vmovsd (%rip),%xmm0 */
        {"c4 e3 79 16 c0 01", 6},             /* vpextrd $1,%xmm0,%eax */
        {"c4 e2 f8 f2 c3", 5},                /* andn %rbx,%rax,%rax */
        {"62 f1 fd 48 6f 44 24 01", 8},       /* vmovdqa64 0x40(%rsp),%zmm0 */
        {"62 f3 7d 48 1e c9 00", 7},          /* vpcmpud $0,%zmm1,%zmm0,%k1 */
        {"c5 f8 77", 3},                      /* vzeroupper */
        {"0f ae f0", 3}, {"f0 48 0f b1 0a", 5}, /* mfence, lock cmpxchg */
        {"66 0f 3a 0f c1 08", 6},             /* palignr */
        {"66 0f 38 00 c1", 5},                /* pshufb */
        {"a1 00 00 00 00 00 00 00 00", 9},    /* movabs 0x0,%eax */
        {"06", -1}, {"0f 0f c1 b4", -1},      /* invalid in 64-bit mode; 3DNow! */
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int length;
        decode(table[i].hex, &length);
        if (length != table[i].length)
            fprintf(stderr, "%s: length %d, expected %d\n", table[i].hex, length, table[i].length);
        CHECK_EQ_U64((uint64_t)(int64_t)length, (uint64_t)(int64_t)table[i].length);
    }
}

static void operands(void)
{
    int length;
    struct ht_insn in = decode("48 8d 3d 10 00 00 00", &length);
    CHECK(in.rip_relative && in.reg == 7 && in.rex_w && in.disp == 0x10);
    in = decode("4c 8d 25 f0 ff ff ff", &length);
    CHECK(in.reg == 12 && in.disp == -0x10);
    in = decode("4c 89 e7", &length);
    CHECK(in.opcode == 0x89 && in.mod == 3 && in.reg == 12 && in.rm == 7 && in.rex_w);
    in = decode("41 bc 78 56 34 12", &length);
    CHECK(in.opcode == 0xBC && in.opreg == 12 && in.imm == 0x12345678u);
    in = decode("74 05", &length);
    CHECK(in.flow == HT_FLOW_JCC && in.target == AT + 2 + 5);
    in = decode("eb fe", &length);
    CHECK(in.flow == HT_FLOW_JMP && in.target == AT);
    in = decode("e9 fb ff ff ff", &length);
    CHECK(in.flow == HT_FLOW_JMP && in.target == AT);
    in = decode("0f 85 00 01 00 00", &length);
    CHECK(in.flow == HT_FLOW_JCC && in.target == AT + 6 + 0x100);
    in = decode("e8 00 00 00 00", &length);
    CHECK(in.flow == HT_FLOW_CALL && in.target == AT + 5);
    CHECK(decode("ff 15 00 00 00 00", &length).flow == HT_FLOW_CALL_INDIRECT);
    CHECK(decode("ff d0", &length).flow == HT_FLOW_CALL_INDIRECT);
    CHECK(decode("ff 25 00 00 00 00", &length).flow == HT_FLOW_JMP_MEMORY);
    CHECK(decode("3e ff e0", &length).flow == HT_FLOW_JMP_COMPUTED);
    CHECK(decode("ff 24 c5 00 00 00 00", &length).flow == HT_FLOW_JMP_COMPUTED);
    CHECK(decode("c3", &length).flow == HT_FLOW_STOP);
    CHECK(decode("0f 0b", &length).flow == HT_FLOW_STOP);
    in = decode("c4 e2 f8 f2 c3", &length);
    CHECK(in.vex && in.map == 2 && in.reg == 0 && in.vvvv == 0 && in.rm == 3);
}

/* objdump's lengths, with its instruction bytes on one line. */
static void against_objdump(const char *file)
{
    char command[512];
    snprintf(command, sizeof command,
             "objdump -d --insn-width=16 '%s' 2>/dev/null | "
             "awk -F'\\t' 'NF >= 3 && $1 ~ /^ *[0-9a-f]+:$/ {print $2}'",
             file);
    FILE *f = popen(command, "r");
    if (!f)
        return;
    char line[256];
    long total = 0, wrong = 0;
    while (fgets(line, sizeof line, f)) {
        int length;
        int expected = 0;
        for (const char *c = line; *c; c++)
            expected += (c == line || c[-1] == ' ') && *c != ' ' && *c != '\n';
        char first[3] = {line[0], line[1], 0};
        uint8_t op = (uint8_t)strtoul(first, NULL, 16);
        decode(line, &length);
        total++;
        /* objdump shows fwait and the x87 instruction after it as one. */
        if (length != expected && !(op == 0x9B && length == 1)) {
            if (wrong++ < 10)
                fprintf(stderr, "%s: %d bytes, objdump says %d: %s", file, length, expected, line);
        }
    }
    pclose(f);
    printf("%s: %ld instructions, %ld decoded to another length\n", file, total, wrong);
    CHECK(total > 1000);
    CHECK_EQ_U64(wrong, 0);
}

static const char *libc_path(void)
{
    static char path[4096];
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return NULL;
    char line[4600];
    const char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '/');
        if (p && strstr(p, "/libc.so") && strlen(p) < sizeof path) {
            strcpy(path, p);
            path[strcspn(path, "\n")] = 0;
            found = path;
        }
    }
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    (void)argc;
    lengths();
    operands();
    if (system("objdump --version >/dev/null 2>&1") == 0) {
        const char *libc = libc_path();
        CHECK(libc != NULL);
        if (libc)
            against_objdump(libc);
        against_objdump(argv[0]);
    } else {
        printf("SKIP: no objdump to compare with\n");
    }
    return CHECK_DONE();
}
