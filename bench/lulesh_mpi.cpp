/* A LULESH 2.0 proxy with LULESH's structure, MPI and OpenMP included (issue
 * 24's third shape), for bench/shapes_cost.py (make bench-apps).
 *
 * What is LULESH's here, as lulesh.cc and lulesh.h write it:
 * - a Domain class of std::vector fields behind one-line inline accessors;
 * - the per-element helpers, straight-line and `static inline`, inlined by
 *   GCC into the element loops: CollectDomainNodesToElemNodes,
 *   CalcElemShapeFunctionDerivatives, SumElemFaceNormal (six per element
 *   through CalcElemNodeNormals), VoluDer (eight through
 *   CalcElemVolumeDerivative), CalcElemVolume, AreaFace,
 *   CalcElemCharacteristicLength, CalcElemVelocityGradient,
 *   CalcElemFBHourglassForce;
 * - the kernels are `static inline` too (GCC decides which stay out of
 *   line), each element or node loop an OpenMP parallel for, the element
 *   forces written per corner and gathered per node (nodeElemCornerList),
 *   so that the result does not depend on the number of threads;
 * - per step: the shared-node force sum with the neighbouring ranks
 *   (Irecv posted before the forces are computed, Isend, Waitall: LULESH's
 *   CommRecv/CommSend/CommSBN), the ghost-element exchange of the monotonic
 *   Q gradients (CommMonoQ), and an MPI_Allreduce(MIN) of the time step
 *   (TimeIncrement).
 * Simplified: the decomposition is into slabs along z (any number of ranks,
 * each an EDGE^3 block: weak scaling as in LULESH), the equation of state is
 * the ideal gas of bench/lulesh_proxy.cpp, and boundary elements are their
 * own neighbours.
 *
 * Usage: lulesh_mpi [-s EDGE] [-i ITERATIONS]   (default -s 30 -i 100)
 * Output (rank 0): sizes and elapsed_s (the main loop, between barriers),
 * then "checksum=...": per-rank sums added in rank order, so that it is the
 * same for every build and every number of threads at a given number of
 * ranks.
 */
// Without the MPI-2 C++ bindings, as LULESH builds.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef double Real_t;
typedef int Index_t;

class Domain {
public:
    Domain(Index_t edge, int rank, int size);

    Real_t& x(Index_t i) { return m_x[i]; }     Real_t& y(Index_t i) { return m_y[i]; }
    Real_t& z(Index_t i) { return m_z[i]; }     Real_t& xd(Index_t i) { return m_xd[i]; }
    Real_t& yd(Index_t i) { return m_yd[i]; }   Real_t& zd(Index_t i) { return m_zd[i]; }
    Real_t& xdd(Index_t i) { return m_xdd[i]; } Real_t& ydd(Index_t i) { return m_ydd[i]; }
    Real_t& zdd(Index_t i) { return m_zdd[i]; } Real_t& fx(Index_t i) { return m_fx[i]; }
    Real_t& fy(Index_t i) { return m_fy[i]; }   Real_t& fz(Index_t i) { return m_fz[i]; }
    Real_t& nodalMass(Index_t i) { return m_nodalMass[i]; }
    Index_t symmX(Index_t i) { return m_symmX[i]; } Index_t symmY(Index_t i) { return m_symmY[i]; }
    Index_t symmZ(Index_t i) { return m_symmZ[i]; }
    Index_t numSymmX() const { return (Index_t)m_symmX.size(); }
    Index_t numSymmZ() const { return (Index_t)m_symmZ.size(); }
    Index_t nodeElemCount(Index_t n) { return m_nodeElemStart[n + 1] - m_nodeElemStart[n]; }
    Index_t* nodeElemCornerList(Index_t n) { return &m_nodeElemCornerList[m_nodeElemStart[n]]; }

    Index_t* nodelist(Index_t i) { return &m_nodelist[8 * (size_t)i]; }
    Index_t lxim(Index_t i) { return m_lxim[i]; }     Index_t lxip(Index_t i) { return m_lxip[i]; }
    Index_t letam(Index_t i) { return m_letam[i]; }   Index_t letap(Index_t i) { return m_letap[i]; }
    Index_t lzetam(Index_t i) { return m_lzetam[i]; } Index_t lzetap(Index_t i) { return m_lzetap[i]; }
    Real_t& e(Index_t i) { return m_e[i]; }           Real_t& p(Index_t i) { return m_p[i]; }
    Real_t& q(Index_t i) { return m_q[i]; }           Real_t& ql(Index_t i) { return m_ql[i]; }
    Real_t& qq(Index_t i) { return m_qq[i]; }         Real_t& v(Index_t i) { return m_v[i]; }
    Real_t& volo(Index_t i) { return m_volo[i]; }     Real_t& vnew(Index_t i) { return m_vnew[i]; }
    Real_t& delv(Index_t i) { return m_delv[i]; }     Real_t& vdov(Index_t i) { return m_vdov[i]; }
    Real_t& arealg(Index_t i) { return m_arealg[i]; } Real_t& ss(Index_t i) { return m_ss[i]; }
    Real_t& elemMass(Index_t i) { return m_elemMass[i]; }
    Real_t& dxx(Index_t i) { return m_dxx[i]; }       Real_t& dyy(Index_t i) { return m_dyy[i]; }
    Real_t& dzz(Index_t i) { return m_dzz[i]; }
    Real_t& delv_xi(Index_t i) { return m_delv_xi[i]; }
    Real_t& delv_eta(Index_t i) { return m_delv_eta[i]; }
    Real_t& delv_zeta(Index_t i) { return m_delv_zeta[i]; }
    Real_t& delx_xi(Index_t i) { return m_delx_xi[i]; }
    Real_t& delx_eta(Index_t i) { return m_delx_eta[i]; }
    Real_t& delx_zeta(Index_t i) { return m_delx_zeta[i]; }

    Real_t hgcoef() const { return 3.0; }      Real_t u_cut() const { return 1.0e-7; }
    Real_t e_cut() const { return 1.0e-7; }    Real_t p_cut() const { return 1.0e-7; }
    Real_t q_cut() const { return 1.0e-7; }    Real_t v_cut() const { return 1.0e-10; }
    Real_t emin() const { return -1.0e15; }    Real_t pmin() const { return 0.0; }
    Real_t qstop() const { return 1.0e12; }    Real_t qlc_monoq() const { return 0.5; }
    Real_t qqc_monoq() const { return 2.0 / 3.0; }
    Real_t qqc() const { return 2.0; }         Real_t dvovmax() const { return 0.1; }
    Real_t dtmax() const { return 1.0e-2; }    Real_t eosvmin() const { return 1.0e-9; }
    Real_t eosvmax() const { return 1.0e9; }   Real_t monoq_max_slope() const { return 1.0; }
    Real_t monoq_limiter_mult() const { return 2.0; }
    Real_t deltatimemultlb() const { return 1.1; }
    Real_t deltatimemultub() const { return 1.2; }
    Real_t& time() { return m_time; }           Real_t& deltatime() { return m_deltatime; }
    Real_t& dtcourant() { return m_dtcourant; } Real_t& dthydro() { return m_dthydro; }
    Index_t& cycle() { return m_cycle; }
    Index_t numElem() const { return m_numElem; }
    Index_t numNode() const { return m_numNode; }
    Index_t edge() const { return m_edge; }
    int rank() const { return m_rank; }
    int size() const { return m_size; }

    // Scratch arrays of the force computation, one entry per element corner.
    std::vector<Real_t> fx_elem, fy_elem, fz_elem, dvdx, dvdy, dvdz, x8n, y8n, z8n, determ, sig;

private:
    Index_t m_edge, m_numElem, m_numNode;
    int m_rank, m_size;
    std::vector<Real_t> m_x, m_y, m_z, m_xd, m_yd, m_zd, m_xdd, m_ydd, m_zdd;
    std::vector<Real_t> m_fx, m_fy, m_fz, m_nodalMass;
    std::vector<Index_t> m_symmX, m_symmY, m_symmZ, m_nodeElemStart, m_nodeElemCornerList;
    std::vector<Index_t> m_nodelist, m_lxim, m_lxip, m_letam, m_letap, m_lzetam, m_lzetap;
    std::vector<Real_t> m_e, m_p, m_q, m_ql, m_qq, m_v, m_volo, m_vnew, m_delv, m_vdov;
    std::vector<Real_t> m_arealg, m_ss, m_elemMass, m_dxx, m_dyy, m_dzz;
    std::vector<Real_t> m_delv_xi, m_delv_eta, m_delv_zeta, m_delx_xi, m_delx_eta, m_delx_zeta;
    Real_t m_time, m_deltatime, m_dtcourant, m_dthydro;
    Index_t m_cycle;
};

static void fail(const char* what, Index_t elem)
{
    std::fprintf(stderr, "lulesh_mpi: %s in element %d\n", what, (int)elem);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* --- communication (LULESH's lulesh-comm.cc, for a stack of slabs) ----------- */

/* Adds each shared node plane's values of the neighbouring rank to this
 * rank's own, for nf fields.  Both ranks add the same two numbers, so the
 * shared nodes stay identical on both. */
static void CommSBN(Domain& d, int nf, Real_t* const f[])
{
    const Index_t plane = (d.edge() + 1) * (d.edge() + 1), top = d.numNode() - plane;
    const int below = d.rank() - 1, above = d.rank() + 1;
    std::vector<Real_t> sendbuf(2 * nf * plane), recvbuf(2 * nf * plane);
    MPI_Request req[4];
    int nreq = 0;
    if (below >= 0)
        MPI_Irecv(&recvbuf[0], nf * plane, MPI_DOUBLE, below, 1, MPI_COMM_WORLD, &req[nreq++]);
    if (above < d.size())
        MPI_Irecv(&recvbuf[nf * plane], nf * plane, MPI_DOUBLE, above, 0, MPI_COMM_WORLD,
                  &req[nreq++]);
    for (int k = 0; k < nf; ++k)
        for (Index_t n = 0; n < plane; ++n) {
            sendbuf[k * plane + n] = f[k][n];
            sendbuf[(nf + k) * plane + n] = f[k][top + n];
        }
    if (below >= 0)
        MPI_Isend(&sendbuf[0], nf * plane, MPI_DOUBLE, below, 0, MPI_COMM_WORLD, &req[nreq++]);
    if (above < d.size())
        MPI_Isend(&sendbuf[nf * plane], nf * plane, MPI_DOUBLE, above, 1, MPI_COMM_WORLD,
                  &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < nf; ++k)
        for (Index_t n = 0; n < plane; ++n) {
            if (below >= 0)
                f[k][n] += recvbuf[k * plane + n];
            if (above < d.size())
                f[k][top + n] += recvbuf[(nf + k) * plane + n];
        }
}

/* The monotonic-Q gradients of the neighbouring ranks' boundary elements,
 * into this rank's ghost elements (numElem.. below, numElem+plane.. above). */
static void CommMonoQ(Domain& d)
{
    const Index_t plane = d.edge() * d.edge(), top = d.numElem() - plane, ghost = d.numElem();
    const int below = d.rank() - 1, above = d.rank() + 1;
    Real_t* const f[3] = {&d.delv_xi(0), &d.delv_eta(0), &d.delv_zeta(0)};
    std::vector<Real_t> sendbuf(6 * plane), recvbuf(6 * plane);
    MPI_Request req[4];
    int nreq = 0;
    if (below >= 0)
        MPI_Irecv(&recvbuf[0], 3 * plane, MPI_DOUBLE, below, 3, MPI_COMM_WORLD, &req[nreq++]);
    if (above < d.size())
        MPI_Irecv(&recvbuf[3 * plane], 3 * plane, MPI_DOUBLE, above, 2, MPI_COMM_WORLD,
                  &req[nreq++]);
    for (int k = 0; k < 3; ++k)
        for (Index_t i = 0; i < plane; ++i) {
            sendbuf[k * plane + i] = f[k][i];
            sendbuf[(3 + k) * plane + i] = f[k][top + i];
        }
    if (below >= 0)
        MPI_Isend(&sendbuf[0], 3 * plane, MPI_DOUBLE, below, 2, MPI_COMM_WORLD, &req[nreq++]);
    if (above < d.size())
        MPI_Isend(&sendbuf[3 * plane], 3 * plane, MPI_DOUBLE, above, 3, MPI_COMM_WORLD,
                  &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 3; ++k)
        for (Index_t i = 0; i < plane; ++i) {
            if (below >= 0)
                f[k][ghost + i] = recvbuf[k * plane + i];
            if (above < d.size())
                f[k][ghost + plane + i] = recvbuf[(3 + k) * plane + i];
        }
}

/* --- element helpers: straight-line, as in LULESH ---------------------------- */

static inline void CollectDomainNodesToElemNodes(Domain& d, const Index_t* nl, Real_t xl[8],
                                                 Real_t yl[8], Real_t zl[8])
{
    const Index_t nd0i = nl[0], nd1i = nl[1], nd2i = nl[2], nd3i = nl[3];
    const Index_t nd4i = nl[4], nd5i = nl[5], nd6i = nl[6], nd7i = nl[7];
    xl[0] = d.x(nd0i); xl[1] = d.x(nd1i); xl[2] = d.x(nd2i); xl[3] = d.x(nd3i);
    xl[4] = d.x(nd4i); xl[5] = d.x(nd5i); xl[6] = d.x(nd6i); xl[7] = d.x(nd7i);
    yl[0] = d.y(nd0i); yl[1] = d.y(nd1i); yl[2] = d.y(nd2i); yl[3] = d.y(nd3i);
    yl[4] = d.y(nd4i); yl[5] = d.y(nd5i); yl[6] = d.y(nd6i); yl[7] = d.y(nd7i);
    zl[0] = d.z(nd0i); zl[1] = d.z(nd1i); zl[2] = d.z(nd2i); zl[3] = d.z(nd3i);
    zl[4] = d.z(nd4i); zl[5] = d.z(nd5i); zl[6] = d.z(nd6i); zl[7] = d.z(nd7i);
}

static inline void CalcElemShapeFunctionDerivatives(const Real_t x[8], const Real_t y[8],
                                                    const Real_t z[8], Real_t b[][8],
                                                    Real_t* const volume)
{
    const Real_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    const Real_t x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const Real_t y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
    const Real_t y4 = y[4], y5 = y[5], y6 = y[6], y7 = y[7];
    const Real_t z0 = z[0], z1 = z[1], z2 = z[2], z3 = z[3];
    const Real_t z4 = z[4], z5 = z[5], z6 = z[6], z7 = z[7];
    const Real_t fjxxi = .125 * ((x6 - x0) + (x5 - x3) - (x7 - x1) - (x4 - x2));
    const Real_t fjxet = .125 * ((x6 - x0) - (x5 - x3) + (x7 - x1) - (x4 - x2));
    const Real_t fjxze = .125 * ((x6 - x0) + (x5 - x3) + (x7 - x1) + (x4 - x2));
    const Real_t fjyxi = .125 * ((y6 - y0) + (y5 - y3) - (y7 - y1) - (y4 - y2));
    const Real_t fjyet = .125 * ((y6 - y0) - (y5 - y3) + (y7 - y1) - (y4 - y2));
    const Real_t fjyze = .125 * ((y6 - y0) + (y5 - y3) + (y7 - y1) + (y4 - y2));
    const Real_t fjzxi = .125 * ((z6 - z0) + (z5 - z3) - (z7 - z1) - (z4 - z2));
    const Real_t fjzet = .125 * ((z6 - z0) - (z5 - z3) + (z7 - z1) - (z4 - z2));
    const Real_t fjzze = .125 * ((z6 - z0) + (z5 - z3) + (z7 - z1) + (z4 - z2));
    // the cofactors
    const Real_t cjxxi = (fjyet * fjzze) - (fjzet * fjyze);
    const Real_t cjxet = -(fjyxi * fjzze) + (fjzxi * fjyze);
    const Real_t cjxze = (fjyxi * fjzet) - (fjzxi * fjyet);
    const Real_t cjyxi = -(fjxet * fjzze) + (fjzet * fjxze);
    const Real_t cjyet = (fjxxi * fjzze) - (fjzxi * fjxze);
    const Real_t cjyze = -(fjxxi * fjzet) + (fjzxi * fjxet);
    const Real_t cjzxi = (fjxet * fjyze) - (fjyet * fjxze);
    const Real_t cjzet = -(fjxxi * fjyze) + (fjyxi * fjxze);
    const Real_t cjzze = (fjxxi * fjyet) - (fjyxi * fjxet);
    b[0][0] = -cjxxi - cjxet - cjxze; b[0][1] = cjxxi - cjxet - cjxze;
    b[0][2] = cjxxi + cjxet - cjxze;  b[0][3] = -cjxxi + cjxet - cjxze;
    b[0][4] = -b[0][2]; b[0][5] = -b[0][3]; b[0][6] = -b[0][0]; b[0][7] = -b[0][1];
    b[1][0] = -cjyxi - cjyet - cjyze; b[1][1] = cjyxi - cjyet - cjyze;
    b[1][2] = cjyxi + cjyet - cjyze;  b[1][3] = -cjyxi + cjyet - cjyze;
    b[1][4] = -b[1][2]; b[1][5] = -b[1][3]; b[1][6] = -b[1][0]; b[1][7] = -b[1][1];
    b[2][0] = -cjzxi - cjzet - cjzze; b[2][1] = cjzxi - cjzet - cjzze;
    b[2][2] = cjzxi + cjzet - cjzze;  b[2][3] = -cjzxi + cjzet - cjzze;
    b[2][4] = -b[2][2]; b[2][5] = -b[2][3]; b[2][6] = -b[2][0]; b[2][7] = -b[2][1];
    *volume = 8. * (fjxet * cjxet + fjyet * cjyet + fjzet * cjzet);
}

static inline void SumElemFaceNormal(Real_t* normalX0, Real_t* normalY0, Real_t* normalZ0,
                                     Real_t* normalX1, Real_t* normalY1, Real_t* normalZ1,
                                     Real_t* normalX2, Real_t* normalY2, Real_t* normalZ2,
                                     Real_t* normalX3, Real_t* normalY3, Real_t* normalZ3,
                                     const Real_t x0, const Real_t y0, const Real_t z0,
                                     const Real_t x1, const Real_t y1, const Real_t z1,
                                     const Real_t x2, const Real_t y2, const Real_t z2,
                                     const Real_t x3, const Real_t y3, const Real_t z3)
{
    const Real_t bisectX0 = 0.5 * (x3 + x2 - x1 - x0);
    const Real_t bisectY0 = 0.5 * (y3 + y2 - y1 - y0);
    const Real_t bisectZ0 = 0.5 * (z3 + z2 - z1 - z0);
    const Real_t bisectX1 = 0.5 * (x2 + x1 - x3 - x0);
    const Real_t bisectY1 = 0.5 * (y2 + y1 - y3 - y0);
    const Real_t bisectZ1 = 0.5 * (z2 + z1 - z3 - z0);
    const Real_t areaX = 0.25 * (bisectY0 * bisectZ1 - bisectZ0 * bisectY1);
    const Real_t areaY = 0.25 * (bisectZ0 * bisectX1 - bisectX0 * bisectZ1);
    const Real_t areaZ = 0.25 * (bisectX0 * bisectY1 - bisectY0 * bisectX1);
    *normalX0 += areaX; *normalX1 += areaX; *normalX2 += areaX; *normalX3 += areaX;
    *normalY0 += areaY; *normalY1 += areaY; *normalY2 += areaY; *normalY3 += areaY;
    *normalZ0 += areaZ; *normalZ1 += areaZ; *normalZ2 += areaZ; *normalZ3 += areaZ;
}

static inline void CalcElemNodeNormals(Real_t pfx[8], Real_t pfy[8], Real_t pfz[8],
                                       const Real_t x[8], const Real_t y[8], const Real_t z[8])
{
    for (Index_t i = 0; i < 8; ++i)
        pfx[i] = pfy[i] = pfz[i] = 0.0;
#define FACE(a, b, c, e)                                                                     \
    SumElemFaceNormal(&pfx[a], &pfy[a], &pfz[a], &pfx[b], &pfy[b], &pfz[b], &pfx[c], &pfy[c], \
                      &pfz[c], &pfx[e], &pfy[e], &pfz[e], x[a], y[a], z[a], x[b], y[b], z[b], \
                      x[c], y[c], z[c], x[e], y[e], z[e])
    FACE(0, 1, 2, 3);
    FACE(0, 4, 5, 1);
    FACE(1, 5, 6, 2);
    FACE(2, 6, 7, 3);
    FACE(3, 7, 4, 0);
    FACE(4, 7, 6, 5);
#undef FACE
}

static inline void SumElemStressesToNodeForces(const Real_t B[][8], const Real_t stress_xx,
                                               const Real_t stress_yy, const Real_t stress_zz,
                                               Real_t fx[], Real_t fy[], Real_t fz[])
{
    for (Index_t i = 0; i < 8; i++) {
        fx[i] = -(stress_xx * B[0][i]);
        fy[i] = -(stress_yy * B[1][i]);
        fz[i] = -(stress_zz * B[2][i]);
    }
}

static inline void VoluDer(const Real_t x0, const Real_t x1, const Real_t x2, const Real_t x3,
                           const Real_t x4, const Real_t x5, const Real_t y0, const Real_t y1,
                           const Real_t y2, const Real_t y3, const Real_t y4, const Real_t y5,
                           const Real_t z0, const Real_t z1, const Real_t z2, const Real_t z3,
                           const Real_t z4, const Real_t z5, Real_t* dvdx, Real_t* dvdy,
                           Real_t* dvdz)
{
    const Real_t twelfth = 1.0 / 12.0;
    *dvdx = (y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) + (y0 + y4) * (z3 + z4)
            - (y3 + y4) * (z0 + z4) - (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5);
    *dvdy = -(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) - (x0 + x4) * (z3 + z4)
            + (x3 + x4) * (z0 + z4) + (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5);
    *dvdz = -(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) - (y0 + y4) * (x3 + x4)
            + (y3 + y4) * (x0 + x4) + (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5);
    *dvdx *= twelfth;
    *dvdy *= twelfth;
    *dvdz *= twelfth;
}

static inline void CalcElemVolumeDerivative(Real_t dvdx[8], Real_t dvdy[8], Real_t dvdz[8],
                                            const Real_t x[8], const Real_t y[8],
                                            const Real_t z[8])
{
#define VD(a, b, c, e, f, g, out)                                                            \
    VoluDer(x[a], x[b], x[c], x[e], x[f], x[g], y[a], y[b], y[c], y[e], y[f], y[g], z[a], z[b], \
            z[c], z[e], z[f], z[g], &dvdx[out], &dvdy[out], &dvdz[out])
    VD(1, 2, 3, 4, 5, 7, 0);
    VD(0, 1, 2, 7, 4, 6, 3);
    VD(3, 0, 1, 6, 7, 5, 2);
    VD(2, 3, 0, 5, 6, 4, 1);
    VD(7, 6, 5, 0, 3, 1, 4);
    VD(4, 7, 6, 1, 0, 2, 5);
    VD(5, 4, 7, 2, 1, 3, 6);
    VD(6, 5, 4, 3, 2, 0, 7);
#undef VD
}

static inline void CalcElemFBHourglassForce(const Real_t* xd, const Real_t* yd, const Real_t* zd,
                                            const Real_t hourgam[][4], const Real_t coefficient,
                                            Real_t* hgfx, Real_t* hgfy, Real_t* hgfz)
{
    Real_t hxx[4];
    for (Index_t i = 0; i < 4; i++)
        hxx[i] = hourgam[0][i] * xd[0] + hourgam[1][i] * xd[1] + hourgam[2][i] * xd[2]
                 + hourgam[3][i] * xd[3] + hourgam[4][i] * xd[4] + hourgam[5][i] * xd[5]
                 + hourgam[6][i] * xd[6] + hourgam[7][i] * xd[7];
    for (Index_t i = 0; i < 8; i++)
        hgfx[i] = coefficient * (hourgam[i][0] * hxx[0] + hourgam[i][1] * hxx[1]
                                 + hourgam[i][2] * hxx[2] + hourgam[i][3] * hxx[3]);
    for (Index_t i = 0; i < 4; i++)
        hxx[i] = hourgam[0][i] * yd[0] + hourgam[1][i] * yd[1] + hourgam[2][i] * yd[2]
                 + hourgam[3][i] * yd[3] + hourgam[4][i] * yd[4] + hourgam[5][i] * yd[5]
                 + hourgam[6][i] * yd[6] + hourgam[7][i] * yd[7];
    for (Index_t i = 0; i < 8; i++)
        hgfy[i] = coefficient * (hourgam[i][0] * hxx[0] + hourgam[i][1] * hxx[1]
                                 + hourgam[i][2] * hxx[2] + hourgam[i][3] * hxx[3]);
    for (Index_t i = 0; i < 4; i++)
        hxx[i] = hourgam[0][i] * zd[0] + hourgam[1][i] * zd[1] + hourgam[2][i] * zd[2]
                 + hourgam[3][i] * zd[3] + hourgam[4][i] * zd[4] + hourgam[5][i] * zd[5]
                 + hourgam[6][i] * zd[6] + hourgam[7][i] * zd[7];
    for (Index_t i = 0; i < 8; i++)
        hgfz[i] = coefficient * (hourgam[i][0] * hxx[0] + hourgam[i][1] * hxx[1]
                                 + hourgam[i][2] * hxx[2] + hourgam[i][3] * hxx[3]);
}

#define TRIPLE_PRODUCT(x1, y1, z1, x2, y2, z2, x3, y3, z3)                                   \
    ((x1) * ((y2) * (z3) - (z2) * (y3)) + (x2) * ((z1) * (y3) - (y1) * (z3))                  \
     + (x3) * ((y1) * (z2) - (z1) * (y2)))

static inline Real_t CalcElemVolume(const Real_t x[8], const Real_t y[8], const Real_t z[8])
{
    const Real_t twelveth = 1.0 / 12.0;
    const Real_t dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
    const Real_t dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
    const Real_t dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
    const Real_t dx20 = x[2] - x[0], dy20 = y[2] - y[0], dz20 = z[2] - z[0];
    const Real_t dx50 = x[5] - x[0], dy50 = y[5] - y[0], dz50 = z[5] - z[0];
    const Real_t dx64 = x[6] - x[4], dy64 = y[6] - y[4], dz64 = z[6] - z[4];
    const Real_t dx31 = x[3] - x[1], dy31 = y[3] - y[1], dz31 = z[3] - z[1];
    const Real_t dx72 = x[7] - x[2], dy72 = y[7] - y[2], dz72 = z[7] - z[2];
    const Real_t dx43 = x[4] - x[3], dy43 = y[4] - y[3], dz43 = z[4] - z[3];
    const Real_t dx57 = x[5] - x[7], dy57 = y[5] - y[7], dz57 = z[5] - z[7];
    const Real_t dx14 = x[1] - x[4], dy14 = y[1] - y[4], dz14 = z[1] - z[4];
    const Real_t dx25 = x[2] - x[5], dy25 = y[2] - y[5], dz25 = z[2] - z[5];
    Real_t volume = TRIPLE_PRODUCT(dx31 + dx72, dx63, dx20, dy31 + dy72, dy63, dy20, dz31 + dz72,
                                   dz63, dz20)
                    + TRIPLE_PRODUCT(dx43 + dx57, dx64, dx70, dy43 + dy57, dy64, dy70,
                                     dz43 + dz57, dz64, dz70)
                    + TRIPLE_PRODUCT(dx14 + dx25, dx61, dx50, dy14 + dy25, dy61, dy50,
                                     dz14 + dz25, dz61, dz50);
    volume *= twelveth;
    return volume;
}

static inline Real_t AreaFace(const Real_t x0, const Real_t x1, const Real_t x2, const Real_t x3,
                              const Real_t y0, const Real_t y1, const Real_t y2, const Real_t y3,
                              const Real_t z0, const Real_t z1, const Real_t z2, const Real_t z3)
{
    const Real_t fx = (x2 - x0) - (x3 - x1), fy = (y2 - y0) - (y3 - y1);
    const Real_t fz = (z2 - z0) - (z3 - z1), gx = (x2 - x0) + (x3 - x1);
    const Real_t gy = (y2 - y0) + (y3 - y1), gz = (z2 - z0) + (z3 - z1);
    const Real_t area = (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz)
                        - (fx * gx + fy * gy + fz * gz) * (fx * gx + fy * gy + fz * gz);
    return area;
}

static inline Real_t CalcElemCharacteristicLength(const Real_t x[8], const Real_t y[8],
                                                  const Real_t z[8], const Real_t volume)
{
    Real_t a, charLength = 0.0;
#define AF(i, j, k, l) \
    AreaFace(x[i], x[j], x[k], x[l], y[i], y[j], y[k], y[l], z[i], z[j], z[k], z[l])
    a = AF(0, 1, 2, 3);
    charLength = std::fmax(a, charLength);
    a = AF(4, 5, 6, 7);
    charLength = std::fmax(a, charLength);
    a = AF(0, 1, 5, 4);
    charLength = std::fmax(a, charLength);
    a = AF(1, 2, 6, 5);
    charLength = std::fmax(a, charLength);
    a = AF(2, 3, 7, 6);
    charLength = std::fmax(a, charLength);
    a = AF(3, 0, 4, 7);
    charLength = std::fmax(a, charLength);
#undef AF
    charLength = 4.0 * volume / std::sqrt(charLength);
    return charLength;
}

static inline void CalcElemVelocityGradient(const Real_t* const xvel, const Real_t* const yvel,
                                            const Real_t* const zvel, const Real_t b[][8],
                                            const Real_t detJ, Real_t* const d)
{
    const Real_t inv_detJ = 1.0 / detJ;
    const Real_t* const pfx = b[0];
    const Real_t* const pfy = b[1];
    const Real_t* const pfz = b[2];
#define GRAD(pf, vel)                                                                     \
    (inv_detJ * (pf[0] * (vel[0] - vel[6]) + pf[1] * (vel[1] - vel[7])                    \
                 + pf[2] * (vel[2] - vel[4]) + pf[3] * (vel[3] - vel[5])))
    d[0] = GRAD(pfx, xvel);
    d[1] = GRAD(pfy, yvel);
    d[2] = GRAD(pfz, zvel);
    const Real_t dyddx = GRAD(pfx, yvel), dxddy = GRAD(pfy, xvel);
    const Real_t dzddx = GRAD(pfx, zvel), dxddz = GRAD(pfz, xvel);
    const Real_t dzddy = GRAD(pfy, zvel), dyddz = GRAD(pfz, yvel);
#undef GRAD
    d[5] = .5 * (dxddy + dyddx);
    d[4] = .5 * (dxddz + dzddx);
    d[3] = .5 * (dzddy + dyddz);
}

/* --- Domain setup: LULESH's Sedov problem, one slab per rank ------------------ */

Domain::Domain(Index_t s, int rank, int size)
    : m_edge(s), m_numElem(s * s * s), m_numNode((s + 1) * (s + 1) * (s + 1)), m_rank(rank),
      m_size(size), m_time(0.0), m_dtcourant(1.0e20), m_dthydro(1.0e20), m_cycle(0)
{
    const Index_t en = s + 1, plane = s * s, ghosts = 2 * plane;
    for (std::vector<Real_t>* f : {&m_x, &m_y, &m_z, &m_xd, &m_yd, &m_zd, &m_xdd, &m_ydd, &m_zdd,
                                   &m_fx, &m_fy, &m_fz, &m_nodalMass})
        f->assign(m_numNode, 0.0);
    for (std::vector<Real_t>* f : {&m_e, &m_p, &m_q, &m_ql, &m_qq, &m_volo, &m_vnew, &m_delv,
                                   &m_vdov, &m_arealg, &m_ss, &m_elemMass, &m_dxx, &m_dyy, &m_dzz,
                                   &m_delx_xi, &m_delx_eta, &m_delx_zeta, &determ, &sig})
        f->assign(m_numElem, 0.0);
    for (std::vector<Real_t>* f : {&m_delv_xi, &m_delv_eta, &m_delv_zeta})
        f->assign(m_numElem + ghosts, 0.0);
    for (std::vector<Real_t>* f : {&fx_elem, &fy_elem, &fz_elem, &dvdx, &dvdy, &dvdz, &x8n, &y8n,
                                   &z8n})
        f->assign(8 * (size_t)m_numElem, 0.0);
    m_v.assign(m_numElem, 1.0);
    m_nodelist.resize(8 * (size_t)m_numElem);
    for (std::vector<Index_t>* f : {&m_lxim, &m_lxip, &m_letam, &m_letap, &m_lzetam, &m_lzetap})
        f->resize(m_numElem);
    const Real_t h = 1.125 / s;
    for (Index_t n = 0; n < m_numNode; ++n) {
        m_x[n] = (n % en) * h;
        m_y[n] = (n / en % en) * h;
        m_z[n] = (n / en / en + (Real_t)rank * s) * h;
    }
    for (Index_t el = 0; el < m_numElem; ++el) {
        const Index_t i = el % s, j = el / s % s, k = el / s / s, n = (k * en + j) * en + i;
        const Index_t nl[8] = {n, n + 1, n + en + 1, n + en, n + en * en, n + en * en + 1,
                               n + en * en + en + 1, n + en * en + en};
        std::memcpy(nodelist(el), nl, sizeof nl);
        m_lxim[el] = i > 0 ? el - 1 : el, m_lxip[el] = i < s - 1 ? el + 1 : el;
        m_letam[el] = j > 0 ? el - s : el, m_letap[el] = j < s - 1 ? el + s : el;
        m_lzetam[el] = k > 0 ? el - plane : rank > 0 ? m_numElem + j * s + i : el;
        m_lzetap[el] = k < s - 1 ? el + plane
                       : rank < size - 1 ? m_numElem + plane + j * s + i : el;
        Real_t xl[8], yl[8], zl[8];
        CollectDomainNodesToElemNodes(*this, nl, xl, yl, zl);
        m_volo[el] = m_elemMass[el] = CalcElemVolume(xl, yl, zl);
        for (int c = 0; c < 8; ++c)
            m_nodalMass[nl[c]] += m_volo[el] / 8.0;
    }
    // The corners of the elements around each node, in element order.
    m_nodeElemStart.assign(m_numNode + 1, 0);
    for (Index_t c = 0; c < 8 * m_numElem; ++c)
        ++m_nodeElemStart[m_nodelist[c] + 1];
    for (Index_t n = 0; n < m_numNode; ++n)
        m_nodeElemStart[n + 1] += m_nodeElemStart[n];
    m_nodeElemCornerList.resize(8 * (size_t)m_numElem);
    std::vector<Index_t> fill(m_nodeElemStart.begin(), m_nodeElemStart.end() - 1);
    for (Index_t c = 0; c < 8 * m_numElem; ++c)
        m_nodeElemCornerList[fill[m_nodelist[c]]++] = c;
    for (Index_t a = 0; a < en; ++a) // the symmetry planes x = 0, y = 0 (and z = 0 on rank 0)
        for (Index_t b = 0; b < en; ++b) {
            m_symmX.push_back((a * en + b) * en);
            m_symmY.push_back(a * en * en + b);
            if (rank == 0)
                m_symmZ.push_back(a * en + b);
        }
    Real_t* const mass[1] = {&m_nodalMass[0]};
    CommSBN(*this, 1, mass);
    // LULESH's Sedov energy, scaled to the mesh of one rank.
    const Real_t einit = 3.948746e+7 * std::pow(s / 45.0, 3);
    if (rank == 0)
        m_e[0] = einit;
    m_deltatime = 0.5 * std::cbrt(m_volo[0]) / std::sqrt(2.0 * einit);
}

/* --- the kernels, as LULESH's lulesh.cc has them ------------------------------ */

static inline void TimeIncrement(Domain& d)
{
    if (d.cycle() != 0) {
        const Real_t olddt = d.deltatime();
        Real_t gnewdt = 1.0e20, newdt;
        if (d.dtcourant() < gnewdt)
            gnewdt = d.dtcourant() / 2.0;
        if (d.dthydro() < gnewdt)
            gnewdt = d.dthydro() * 2.0 / 3.0;
        MPI_Allreduce(&gnewdt, &newdt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        const Real_t ratio = newdt / olddt;
        if (ratio >= 1.0) {
            if (ratio < d.deltatimemultlb())
                newdt = olddt;
            else if (ratio > d.deltatimemultub())
                newdt = olddt * d.deltatimemultub();
        }
        if (newdt > d.dtmax())
            newdt = d.dtmax();
        d.deltatime() = newdt;
    }
    d.time() += d.deltatime();
    ++d.cycle();
}

/* The corner forces of the elements around each node, summed in a fixed
 * order: the same result with any number of threads. */
static inline void GatherNodeForces(Domain& d, bool add)
{
#pragma omp parallel for
    for (Index_t n = 0; n < d.numNode(); ++n) {
        const Index_t count = d.nodeElemCount(n);
        const Index_t* cornerList = d.nodeElemCornerList(n);
        Real_t fx = 0.0, fy = 0.0, fz = 0.0;
        for (Index_t i = 0; i < count; ++i) {
            const Index_t c = cornerList[i];
            fx += d.fx_elem[c];
            fy += d.fy_elem[c];
            fz += d.fz_elem[c];
        }
        if (add)
            d.fx(n) += fx, d.fy(n) += fy, d.fz(n) += fz;
        else
            d.fx(n) = fx, d.fy(n) = fy, d.fz(n) = fz;
    }
}

static inline void IntegrateStressForElems(Domain& d)
{
#pragma omp parallel for
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Index_t* const elemToNode = d.nodelist(k);
        Real_t B[3][8], x_local[8], y_local[8], z_local[8];
        CollectDomainNodesToElemNodes(d, elemToNode, x_local, y_local, z_local);
        CalcElemShapeFunctionDerivatives(x_local, y_local, z_local, B, &d.determ[k]);
        CalcElemNodeNormals(B[0], B[1], B[2], x_local, y_local, z_local);
        SumElemStressesToNodeForces(B, d.sig[k], d.sig[k], d.sig[k], &d.fx_elem[8 * (size_t)k],
                                    &d.fy_elem[8 * (size_t)k], &d.fz_elem[8 * (size_t)k]);
    }
    GatherNodeForces(d, false);
}

static inline void CalcFBHourglassForceForElems(Domain& d, Real_t hourg)
{
    static const Real_t gamma[4][8] = {{1., 1., -1., -1., -1., -1., 1., 1.},
                                       {1., -1., -1., 1., -1., 1., 1., -1.},
                                       {1., -1., 1., -1., 1., -1., 1., -1.},
                                       {-1., 1., -1., 1., 1., -1., 1., -1.}};
#pragma omp parallel for
    for (Index_t i2 = 0; i2 < d.numElem(); ++i2) {
        const Index_t i3 = 8 * i2;
        const Index_t* elemToNode = d.nodelist(i2);
        Real_t hourgam[8][4], xd1[8], yd1[8], zd1[8];
        const Real_t volinv = 1.0 / d.determ[i2];
        for (Index_t i1 = 0; i1 < 4; ++i1) {
            Real_t hourmodx = 0.0, hourmody = 0.0, hourmodz = 0.0;
            for (Index_t c = 0; c < 8; ++c) {
                hourmodx += d.x8n[i3 + c] * gamma[i1][c];
                hourmody += d.y8n[i3 + c] * gamma[i1][c];
                hourmodz += d.z8n[i3 + c] * gamma[i1][c];
            }
            for (Index_t c = 0; c < 8; ++c)
                hourgam[c][i1] = gamma[i1][c]
                                 - volinv * (d.dvdx[i3 + c] * hourmodx + d.dvdy[i3 + c] * hourmody
                                             + d.dvdz[i3 + c] * hourmodz);
        }
        const Real_t ss1 = d.ss(i2), mass1 = d.elemMass(i2), volume13 = std::cbrt(d.determ[i2]);
        for (Index_t c = 0; c < 8; ++c) {
            xd1[c] = d.xd(elemToNode[c]);
            yd1[c] = d.yd(elemToNode[c]);
            zd1[c] = d.zd(elemToNode[c]);
        }
        const Real_t coefficient = -hourg * 0.01 * ss1 * mass1 / volume13;
        CalcElemFBHourglassForce(xd1, yd1, zd1, hourgam, coefficient, &d.fx_elem[i3],
                                 &d.fy_elem[i3], &d.fz_elem[i3]);
    }
    GatherNodeForces(d, true);
}

static inline void CalcHourglassControlForElems(Domain& d, Real_t hgcoef)
{
#pragma omp parallel for
    for (Index_t i = 0; i < d.numElem(); ++i) {
        Real_t x1[8], y1[8], z1[8], pfx[8], pfy[8], pfz[8];
        const Index_t* elemToNode = d.nodelist(i);
        CollectDomainNodesToElemNodes(d, elemToNode, x1, y1, z1);
        CalcElemVolumeDerivative(pfx, pfy, pfz, x1, y1, z1);
        for (Index_t ii = 0; ii < 8; ++ii) {
            const Index_t jj = 8 * i + ii;
            d.dvdx[jj] = pfx[ii], d.dvdy[jj] = pfy[ii], d.dvdz[jj] = pfz[ii];
            d.x8n[jj] = x1[ii], d.y8n[jj] = y1[ii], d.z8n[jj] = z1[ii];
        }
        d.determ[i] = d.volo(i) * d.v(i);
        if (d.v(i) <= 0.0)
            fail("non-positive volume", i);
    }
    if (hgcoef > 0.0)
        CalcFBHourglassForceForElems(d, hgcoef);
}

static inline void CalcVolumeForceForElems(Domain& d)
{
#pragma omp parallel for
    for (Index_t i = 0; i < d.numElem(); ++i) // InitStressTermsForElems
        d.sig[i] = -d.p(i) - d.q(i);
    IntegrateStressForElems(d);
    for (Index_t k = 0; k < d.numElem(); ++k)
        if (d.determ[k] <= 0.0)
            fail("non-positive Jacobian", k);
    CalcHourglassControlForElems(d, d.hgcoef());
}

static inline void CalcForceForNodes(Domain& d)
{
    CalcVolumeForceForElems(d);
    Real_t* const f[3] = {&d.fx(0), &d.fy(0), &d.fz(0)};
    CommSBN(d, 3, f);
}

static inline void LagrangeNodal(Domain& d)
{
    const Real_t delt = d.deltatime(), u_cut = d.u_cut();
    CalcForceForNodes(d);
#pragma omp parallel for
    for (Index_t i = 0; i < d.numNode(); ++i) { // CalcAccelerationForNodes
        d.xdd(i) = d.fx(i) / d.nodalMass(i);
        d.ydd(i) = d.fy(i) / d.nodalMass(i);
        d.zdd(i) = d.fz(i) / d.nodalMass(i);
    }
    // ApplyAccelerationBoundaryConditionsForNodes
    for (Index_t i = 0; i < d.numSymmX(); ++i) {
        d.xdd(d.symmX(i)) = 0.0;
        d.ydd(d.symmY(i)) = 0.0;
    }
    for (Index_t i = 0; i < d.numSymmZ(); ++i)
        d.zdd(d.symmZ(i)) = 0.0;
#pragma omp parallel for
    for (Index_t i = 0; i < d.numNode(); ++i) { // CalcVelocityForNodes
        Real_t xdtmp = d.xd(i) + d.xdd(i) * delt;
        if (std::fabs(xdtmp) < u_cut)
            xdtmp = 0.0;
        d.xd(i) = xdtmp;
        Real_t ydtmp = d.yd(i) + d.ydd(i) * delt;
        if (std::fabs(ydtmp) < u_cut)
            ydtmp = 0.0;
        d.yd(i) = ydtmp;
        Real_t zdtmp = d.zd(i) + d.zdd(i) * delt;
        if (std::fabs(zdtmp) < u_cut)
            zdtmp = 0.0;
        d.zd(i) = zdtmp;
    }
#pragma omp parallel for
    for (Index_t i = 0; i < d.numNode(); ++i) { // CalcPositionForNodes
        d.x(i) += d.xd(i) * delt;
        d.y(i) += d.yd(i) * delt;
        d.z(i) += d.zd(i) * delt;
    }
}

static inline void CalcKinematicsForElems(Domain& d, Real_t deltaTime)
{
#pragma omp parallel for
    for (Index_t k = 0; k < d.numElem(); ++k) {
        Real_t B[3][8], D[6], x_local[8], y_local[8], z_local[8];
        Real_t xd_local[8], yd_local[8], zd_local[8], detJ = 0.0;
        const Index_t* const elemToNode = d.nodelist(k);
        CollectDomainNodesToElemNodes(d, elemToNode, x_local, y_local, z_local);
        const Real_t volume = CalcElemVolume(x_local, y_local, z_local);
        const Real_t relativeVolume = volume / d.volo(k);
        d.vnew(k) = relativeVolume;
        d.delv(k) = relativeVolume - d.v(k);
        d.arealg(k) = CalcElemCharacteristicLength(x_local, y_local, z_local, volume);
        for (Index_t lnode = 0; lnode < 8; ++lnode) {
            const Index_t gnode = elemToNode[lnode];
            xd_local[lnode] = d.xd(gnode);
            yd_local[lnode] = d.yd(gnode);
            zd_local[lnode] = d.zd(gnode);
        }
        const Real_t dt2 = 0.5 * deltaTime;
        for (Index_t j = 0; j < 8; ++j) {
            x_local[j] -= dt2 * xd_local[j];
            y_local[j] -= dt2 * yd_local[j];
            z_local[j] -= dt2 * zd_local[j];
        }
        CalcElemShapeFunctionDerivatives(x_local, y_local, z_local, B, &detJ);
        CalcElemVelocityGradient(xd_local, yd_local, zd_local, B, detJ, D);
        d.dxx(k) = D[0];
        d.dyy(k) = D[1];
        d.dzz(k) = D[2];
    }
}

static inline void CalcLagrangeElements(Domain& d)
{
    CalcKinematicsForElems(d, d.deltatime());
#pragma omp parallel for
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Real_t vdov = d.dxx(k) + d.dyy(k) + d.dzz(k);
        const Real_t vdovthird = vdov / 3.0;
        d.vdov(k) = vdov;
        d.dxx(k) -= vdovthird;
        d.dyy(k) -= vdovthird;
        d.dzz(k) -= vdovthird;
    }
    for (Index_t k = 0; k < d.numElem(); ++k)
        if (d.vnew(k) <= 0.0)
            fail("non-positive volume", k);
}

#define SUM4(a, b, c, e) ((a) + (b) + (c) + (e))

static inline void CalcMonotonicQGradientsForElems(Domain& d)
{
    const Real_t ptiny = 1.e-36;
#pragma omp parallel for
    for (Index_t i = 0; i < d.numElem(); ++i) {
        const Index_t* elemToNode = d.nodelist(i);
        const Index_t n0 = elemToNode[0], n1 = elemToNode[1], n2 = elemToNode[2];
        const Index_t n3 = elemToNode[3], n4 = elemToNode[4], n5 = elemToNode[5];
        const Index_t n6 = elemToNode[6], n7 = elemToNode[7];
        const Real_t x0 = d.x(n0), x1 = d.x(n1), x2 = d.x(n2), x3 = d.x(n3);
        const Real_t x4 = d.x(n4), x5 = d.x(n5), x6 = d.x(n6), x7 = d.x(n7);
        const Real_t y0 = d.y(n0), y1 = d.y(n1), y2 = d.y(n2), y3 = d.y(n3);
        const Real_t y4 = d.y(n4), y5 = d.y(n5), y6 = d.y(n6), y7 = d.y(n7);
        const Real_t z0 = d.z(n0), z1 = d.z(n1), z2 = d.z(n2), z3 = d.z(n3);
        const Real_t z4 = d.z(n4), z5 = d.z(n5), z6 = d.z(n6), z7 = d.z(n7);
        const Real_t xv0 = d.xd(n0), xv1 = d.xd(n1), xv2 = d.xd(n2), xv3 = d.xd(n3);
        const Real_t xv4 = d.xd(n4), xv5 = d.xd(n5), xv6 = d.xd(n6), xv7 = d.xd(n7);
        const Real_t yv0 = d.yd(n0), yv1 = d.yd(n1), yv2 = d.yd(n2), yv3 = d.yd(n3);
        const Real_t yv4 = d.yd(n4), yv5 = d.yd(n5), yv6 = d.yd(n6), yv7 = d.yd(n7);
        const Real_t zv0 = d.zd(n0), zv1 = d.zd(n1), zv2 = d.zd(n2), zv3 = d.zd(n3);
        const Real_t zv4 = d.zd(n4), zv5 = d.zd(n5), zv6 = d.zd(n6), zv7 = d.zd(n7);
        const Real_t vol = d.volo(i) * d.vnew(i), norm = 1.0 / (vol + ptiny);
        const Real_t dxj = -0.25 * (SUM4(x0, x1, x5, x4) - SUM4(x3, x2, x6, x7));
        const Real_t dyj = -0.25 * (SUM4(y0, y1, y5, y4) - SUM4(y3, y2, y6, y7));
        const Real_t dzj = -0.25 * (SUM4(z0, z1, z5, z4) - SUM4(z3, z2, z6, z7));
        const Real_t dxi = 0.25 * (SUM4(x1, x2, x6, x5) - SUM4(x0, x3, x7, x4));
        const Real_t dyi = 0.25 * (SUM4(y1, y2, y6, y5) - SUM4(y0, y3, y7, y4));
        const Real_t dzi = 0.25 * (SUM4(z1, z2, z6, z5) - SUM4(z0, z3, z7, z4));
        const Real_t dxk = 0.25 * (SUM4(x4, x5, x6, x7) - SUM4(x0, x1, x2, x3));
        const Real_t dyk = 0.25 * (SUM4(y4, y5, y6, y7) - SUM4(y0, y1, y2, y3));
        const Real_t dzk = 0.25 * (SUM4(z4, z5, z6, z7) - SUM4(z0, z1, z2, z3));
        Real_t ax, ay, az, dxv, dyv, dzv;
        // delvk and delxk (i cross j)
        ax = dyi * dzj - dzi * dyj, ay = dzi * dxj - dxi * dzj, az = dxi * dyj - dyi * dxj;
        d.delx_zeta(i) = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
        ax *= norm, ay *= norm, az *= norm;
        dxv = 0.25 * (SUM4(xv4, xv5, xv6, xv7) - SUM4(xv0, xv1, xv2, xv3));
        dyv = 0.25 * (SUM4(yv4, yv5, yv6, yv7) - SUM4(yv0, yv1, yv2, yv3));
        dzv = 0.25 * (SUM4(zv4, zv5, zv6, zv7) - SUM4(zv0, zv1, zv2, zv3));
        d.delv_zeta(i) = ax * dxv + ay * dyv + az * dzv;
        // delxi and delvi (j cross k)
        ax = dyj * dzk - dzj * dyk, ay = dzj * dxk - dxj * dzk, az = dxj * dyk - dyj * dxk;
        d.delx_xi(i) = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
        ax *= norm, ay *= norm, az *= norm;
        dxv = 0.25 * (SUM4(xv1, xv2, xv6, xv5) - SUM4(xv0, xv3, xv7, xv4));
        dyv = 0.25 * (SUM4(yv1, yv2, yv6, yv5) - SUM4(yv0, yv3, yv7, yv4));
        dzv = 0.25 * (SUM4(zv1, zv2, zv6, zv5) - SUM4(zv0, zv3, zv7, zv4));
        d.delv_xi(i) = ax * dxv + ay * dyv + az * dzv;
        // delxj and delvj (k cross i)
        ax = dyk * dzi - dzk * dyi, ay = dzk * dxi - dxk * dzi, az = dxk * dyi - dyk * dxi;
        d.delx_eta(i) = vol / std::sqrt(ax * ax + ay * ay + az * az + ptiny);
        ax *= norm, ay *= norm, az *= norm;
        dxv = -0.25 * (SUM4(xv0, xv1, xv5, xv4) - SUM4(xv3, xv2, xv6, xv7));
        dyv = -0.25 * (SUM4(yv0, yv1, yv5, yv4) - SUM4(yv3, yv2, yv6, yv7));
        dzv = -0.25 * (SUM4(zv0, zv1, zv5, zv4) - SUM4(zv3, zv2, zv6, zv7));
        d.delv_eta(i) = ax * dxv + ay * dyv + az * dzv;
    }
}

/* One direction's slope limiter (LULESH writes it out three times). */
static inline Real_t MonoQPhi(Domain& d, Real_t (&delv)(Domain&, Index_t), Index_t i, Index_t lm,
                              Index_t lp)
{
    const Real_t ptiny = 1.e-36;
    const Real_t norm = 1.0 / (delv(d, i) + ptiny);
    Real_t delvm = delv(d, lm), delvp = delv(d, lp);
    delvm = delvm * norm;
    delvp = delvp * norm;
    Real_t phi = 0.5 * (delvm + delvp);
    delvm *= d.monoq_limiter_mult();
    delvp *= d.monoq_limiter_mult();
    if (delvm < phi)
        phi = delvm;
    if (delvp < phi)
        phi = delvp;
    if (phi < 0.0)
        phi = 0.0;
    if (phi > d.monoq_max_slope())
        phi = d.monoq_max_slope();
    return phi;
}

static inline Real_t DelvXi(Domain& d, Index_t i) { return d.delv_xi(i); }
static inline Real_t DelvEta(Domain& d, Index_t i) { return d.delv_eta(i); }
static inline Real_t DelvZeta(Domain& d, Index_t i) { return d.delv_zeta(i); }

static inline void CalcMonotonicQRegionForElems(Domain& d)
{
    const Real_t qlc_monoq = d.qlc_monoq(), qqc_monoq = d.qqc_monoq();
#pragma omp parallel for
    for (Index_t i = 0; i < d.numElem(); ++i) {
        Real_t qlin, qquad;
        const Real_t phixi = MonoQPhi(d, DelvXi, i, d.lxim(i), d.lxip(i));
        const Real_t phieta = MonoQPhi(d, DelvEta, i, d.letam(i), d.letap(i));
        const Real_t phizeta = MonoQPhi(d, DelvZeta, i, d.lzetam(i), d.lzetap(i));
        if (d.vdov(i) > 0.0) {
            qlin = 0.0;
            qquad = 0.0;
        } else {
            Real_t delvxxi = d.delv_xi(i) * d.delx_xi(i);
            Real_t delvxeta = d.delv_eta(i) * d.delx_eta(i);
            Real_t delvxzeta = d.delv_zeta(i) * d.delx_zeta(i);
            if (delvxxi > 0.0)
                delvxxi = 0.0;
            if (delvxeta > 0.0)
                delvxeta = 0.0;
            if (delvxzeta > 0.0)
                delvxzeta = 0.0;
            const Real_t rho = d.elemMass(i) / (d.volo(i) * d.vnew(i));
            qlin = -qlc_monoq * rho
                   * (delvxxi * (1.0 - phixi) + delvxeta * (1.0 - phieta)
                      + delvxzeta * (1.0 - phizeta));
            qquad = qqc_monoq * rho
                    * (delvxxi * delvxxi * (1.0 - phixi * phixi)
                       + delvxeta * delvxeta * (1.0 - phieta * phieta)
                       + delvxzeta * delvxzeta * (1.0 - phizeta * phizeta));
        }
        d.qq(i) = qquad;
        d.ql(i) = qlin;
    }
}

static inline void CalcQForElems(Domain& d)
{
    CalcMonotonicQGradientsForElems(d);
    CommMonoQ(d);
    CalcMonotonicQRegionForElems(d);
    for (Index_t i = 0; i < d.numElem(); ++i)
        if (d.ql(i) + d.qq(i) > d.qstop())
            fail("Q too large", i);
}

/* Ideal gas, gamma = 5/3 (bench/lulesh_proxy.cpp's equation of state). */
static inline Real_t Pressure(Domain& d, Real_t e, Real_t vnew)
{
    Real_t p = (2.0 / 3.0) * e / vnew;
    if (std::fabs(p) < d.p_cut())
        p = 0.0;
    return p < d.pmin() ? d.pmin() : p;
}

static inline Real_t SoundSpeed(Real_t e, Real_t p, Real_t vnew)
{
    const Real_t ss2 = (2.0 / 3.0) * (e + vnew * p);
    return ss2 <= 1.111111e-37 ? 0.3333333e-18 : std::sqrt(ss2);
}

static inline Real_t CutAtLeast(Real_t v, Real_t cut, Real_t min)
{
    if (std::fabs(v) < cut)
        v = 0.0;
    return v < min ? min : v;
}

static inline void ApplyMaterialPropertiesForElems(Domain& d)
{
#pragma omp parallel for
    for (Index_t k = 0; k < d.numElem(); ++k) {
        Real_t vnewc = d.vnew(k);
        if (vnewc < d.eosvmin())
            vnewc = d.eosvmin();
        if (vnewc > d.eosvmax())
            vnewc = d.eosvmax();
        const Real_t delvc = d.delv(k), pq_old = d.p(k) + d.q(k), ql = d.ql(k), qq = d.qq(k);
        // LULESH's three-stage energy update (predictor, corrector, final).
        Real_t e_new = CutAtLeast(d.e(k) - 0.5 * delvc * pq_old, 0.0, d.emin());
        const Real_t p_half = Pressure(d, e_new, vnewc);
        const Real_t q_half = delvc > 0.0 ? 0.0 : SoundSpeed(e_new, p_half, vnewc) * ql + qq;
        e_new += 0.5 * delvc * (3.0 * pq_old - 4.0 * (p_half + q_half));
        e_new = CutAtLeast(e_new, d.e_cut(), d.emin());
        Real_t p_new = Pressure(d, e_new, vnewc);
        const Real_t q_tilde = delvc > 0.0 ? 0.0 : SoundSpeed(e_new, p_new, vnewc) * ql + qq;
        e_new -= (7.0 * pq_old - 8.0 * (p_half + q_half) + (p_new + q_tilde)) * delvc / 6.0;
        e_new = CutAtLeast(e_new, d.e_cut(), d.emin());
        p_new = Pressure(d, e_new, vnewc);
        const Real_t ss = SoundSpeed(e_new, p_new, vnewc);
        Real_t q_new = delvc > 0.0 ? 0.0 : ss * ql + qq;
        if (std::fabs(q_new) < d.q_cut())
            q_new = 0.0;
        d.e(k) = e_new;
        d.p(k) = p_new;
        d.q(k) = q_new;
        d.ss(k) = ss;
    }
#pragma omp parallel for
    for (Index_t k = 0; k < d.numElem(); ++k) { // UpdateVolumesForElems
        Real_t tmpV = d.vnew(k);
        if (std::fabs(tmpV - 1.0) < d.v_cut())
            tmpV = 1.0;
        d.v(k) = tmpV;
    }
}

static inline void LagrangeElements(Domain& d)
{
    CalcLagrangeElements(d);
    CalcQForElems(d);
    ApplyMaterialPropertiesForElems(d);
}

static inline void CalcTimeConstraintsForElems(Domain& d)
{
    Real_t dtcourant = 1.0e20, dthydro = 1.0e20;
    const Real_t qqc2 = 64.0 * d.qqc() * d.qqc(), dvovmax = d.dvovmax();
#pragma omp parallel for reduction(min : dtcourant, dthydro)
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Real_t vdov = d.vdov(k);
        if (vdov == 0.0)
            continue;
        Real_t dtf = d.ss(k) * d.ss(k);
        if (vdov < 0.0)
            dtf += qqc2 * d.arealg(k) * d.arealg(k) * vdov * vdov;
        dtf = d.arealg(k) / std::sqrt(dtf);
        if (dtf < dtcourant)
            dtcourant = dtf;
        const Real_t dtdvov = dvovmax / (std::fabs(vdov) + 1.0e-20);
        if (dtdvov < dthydro)
            dthydro = dtdvov;
    }
    d.dtcourant() = dtcourant;
    d.dthydro() = dthydro;
}

static inline void LagrangeLeapFrog(Domain& d)
{
    LagrangeNodal(d);
    LagrangeElements(d);
    CalcTimeConstraintsForElems(d);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Index_t edge = 30, iterations = 100;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 < argc && !std::strcmp(argv[i], "-s"))
            edge = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-i"))
            iterations = std::atoi(argv[++i]);
        else
            edge = -1;
    }
    if (edge < 2 || edge > 400 || iterations < 1) {
        if (rank == 0)
            std::fprintf(stderr, "usage: %s [-s EDGE (2..400)] [-i ITERATIONS]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    Domain d(edge, rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    while (d.cycle() < iterations) {
        TimeIncrement(d);
        LagrangeLeapFrog(d);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - t0;

    Real_t sums[3] = {0.0, 0.0, 0.0};
    for (Index_t k = 0; k < d.numElem(); ++k)
        sums[0] += d.e(k), sums[1] += d.p(k);
    for (Index_t n = 0; n < d.numNode(); ++n)
        sums[2] += d.x(n) + d.y(n) + d.z(n);
    std::vector<Real_t> all(3 * (size_t)size);
    MPI_Gather(sums, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        Real_t total[3] = {0.0, 0.0, 0.0};
        for (int r = 0; r < size; ++r)
            for (int k = 0; k < 3; ++k)
                total[k] += all[3 * r + k];
#ifdef _OPENMP
        const int threads = omp_get_max_threads();
#else
        const int threads = 1;
#endif
        std::printf("lulesh_mpi: ranks=%d threads=%d edge=%d elements=%d iterations=%d time=%.6e "
                    "dt=%.6e origin_energy=%.6e elapsed_s=%.3f\n",
                    size, threads, (int)edge, (int)d.numElem() * size, (int)d.cycle(), d.time(),
                    d.deltatime(), d.e(0), elapsed);
        std::printf("checksum=%.17g %.17g %.17g\n", total[0], total[1], total[2]);
    }
    MPI_Finalize();
    return 0;
}
