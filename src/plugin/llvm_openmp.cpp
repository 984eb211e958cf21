/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * OpenMP regions named after the function they belong to (docs/clang.md).
 *
 * Clang outlines the body of each parallel region and task into a function
 * of its own, .omp_outlined., .omp_outlined..3, ..., and instruments it:
 * the profile showed such nodes with nothing to say which kernel they were.
 * GCC names the same functions after the function holding the construct,
 * P._omp_fn.N (C: "Force._omp_fn.0"; C++, a linkage name with a suffix,
 * which the demangler shows as "Force(Domain&) [clone ._omp_fn.0]").  This
 * pass gives clang's the same names, so that hooktrace displays a region
 * alike whichever compiler built it, and src/symbols needs no rule of its
 * own for clang.
 *
 * P is found through the uses: a region's function is passed to
 * __kmpc_fork_call in P, a task's body is called by its .omp_task_entry.,
 * which is passed to __kmpc_omp_task_alloc in the region holding the task,
 * and so on up to a function clang did not generate (names starting with
 * ".omp").  N counts the regions and tasks of P in the order of their
 * lines, as GCC counts them in source order.
 *
 * The rest of what clang generates for OpenMP loses its hooks, before
 * anything is inlined: with -g each region is a wrapper calling
 * .omp_outlined._debug__, its body, which the wrapper inlines from -O1 on
 * (a second node for the same region at -O0, an inlined copy after it);
 * .omp_task_entry., .omp.reduction.reduction_func and the like are the
 * runtime's plumbing, not code the user wrote. */
#include "llvm_hooks.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;

namespace hooktrace {

static bool isGenerated(StringRef name)
{
    return name.startswith(".omp");
}

static bool isRegionBody(StringRef name)
{
    return name.startswith(".omp_outlined.") && !name.contains("_debug__");
}

/* The function other than F that holds the first use of value, F or a
 * constant cast of it (a call, or F's address passed to the runtime; F's
 * own hooks name it too). */
static Function *userFunction(const Function &F, const Value &value, unsigned depth = 0)
{
    for (const User *user : value.users()) {
        if (const auto *I = dyn_cast<Instruction>(user)) {
            if (I->getFunction() != &F)
                return const_cast<Function *>(I->getFunction());
        } else if (isa<ConstantExpr>(user) && depth < 4) {
            if (Function *holder = userFunction(F, *user, depth + 1))
                return holder;
        }
    }
    return nullptr;
}

/* The function the user wrote that F was generated for, or null. */
static Function *ownerOf(Function &F)
{
    Function *owner = &F;
    for (unsigned steps = 0; owner && isGenerated(owner->getName()); steps++)
        owner = steps < 16 ? userFunction(*owner, *owner) : nullptr;
    return owner;
}

static void renameSubprogram(Function &F, StringRef name)
{
    DISubprogram *sp = F.getSubprogram();
    if (!sp || !sp->isDistinct())
        return;
    MDString *text = MDString::get(F.getContext(), name);
    sp->replaceOperandWith(2, text);
    if (sp->getRawLinkageName())
        sp->replaceOperandWith(3, text);
}

bool nameOpenMPRegions(Module &M)
{
    bool changed = false;
    /* The regions of each owner, with their line and place in the module. */
    MapVector<Function *, std::vector<std::pair<std::pair<unsigned, unsigned>, Function *>>> regions;
    unsigned place = 0;
    for (Function &F : M) {
        place++;
        if (F.isDeclaration() || !isGenerated(F.getName()))
            continue;
        if (!isRegionBody(F.getName())) {
            changed |= removeOwnHooks(F);
            continue;
        }
        Function *owner = ownerOf(F);
        if (!owner)
            continue;
        unsigned line = F.getSubprogram() ? F.getSubprogram()->getLine() : 0;
        regions[owner].push_back({{line, place}, &F});
    }
    for (auto &entry : regions) {
        std::vector<std::pair<std::pair<unsigned, unsigned>, Function *>> &bodies = entry.second;
        std::sort(bodies.begin(), bodies.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        unsigned n = 0;
        for (auto &body : bodies) {
            Function &F = *body.second;
            std::string name = (entry.first->getName() + "._omp_fn." + Twine(n++)).str();
            if (options().verbose)
                errs() << "hooktrace plugin: " << F.getName() << " named " << name << "\n";
            F.setName(name); /* made unique by LLVM if it were taken */
            renameSubprogram(F, F.getName());
            changed = true;
        }
    }
    return changed;
}

} // namespace hooktrace
