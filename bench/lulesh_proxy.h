/* The Domain class and the element geometry of bench/lulesh_proxy.cpp, laid
 * out as LULESH's lulesh.h and lulesh.cc lay them out: the fields behind
 * one-line accessors, the geometry in small inline functions.  GCC inlines
 * every accessor (and some of the helpers) at -O2; under
 * -finstrument-functions each inlined copy keeps its hook calls. */
#ifndef HT_BENCH_LULESH_PROXY_H
#define HT_BENCH_LULESH_PROXY_H

#include <cmath>
#include <vector>

typedef double Real_t;
typedef int Index_t;

class Domain {
public:
    explicit Domain(Index_t edgeElems);

    // Node-centred fields.
    Real_t& x(Index_t i) { return m_x[i]; }     Real_t& y(Index_t i) { return m_y[i]; }
    Real_t& z(Index_t i) { return m_z[i]; }     Real_t& xd(Index_t i) { return m_xd[i]; }
    Real_t& yd(Index_t i) { return m_yd[i]; }   Real_t& zd(Index_t i) { return m_zd[i]; }
    Real_t& xdd(Index_t i) { return m_xdd[i]; } Real_t& ydd(Index_t i) { return m_ydd[i]; }
    Real_t& zdd(Index_t i) { return m_zdd[i]; } Real_t& fx(Index_t i) { return m_fx[i]; }
    Real_t& fy(Index_t i) { return m_fy[i]; }   Real_t& fz(Index_t i) { return m_fz[i]; }
    Real_t& nodalMass(Index_t i) { return m_nodalMass[i]; }
    Index_t symmX(Index_t i) { return m_symmX[i]; } Index_t symmY(Index_t i) { return m_symmY[i]; }
    Index_t symmZ(Index_t i) { return m_symmZ[i]; }
    Index_t numSymm() const { return (Index_t)m_symmX.size(); }

    // Element-centred fields.
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
    Real_t& dxx(Index_t i) { return m_dxx[i]; }       Real_t& dyy(Index_t i) { return m_dyy[i]; }
    Real_t& dzz(Index_t i) { return m_dzz[i]; }
    Real_t& elemMass(Index_t i) { return m_elemMass[i]; }

    // Parameters (LULESH's values) and the time-step state.
    Real_t hgcoef() const { return 3.0; }      Real_t u_cut() const { return 1.0e-7; }
    Real_t e_cut() const { return 1.0e-7; }    Real_t p_cut() const { return 1.0e-7; }
    Real_t q_cut() const { return 1.0e-7; }    Real_t emin() const { return -1.0e15; }
    Real_t pmin() const { return 0.0; }        Real_t qstop() const { return 1.0e12; }
    Real_t qlc_monoq() const { return 0.5; }   Real_t qqc_monoq() const { return 2.0 / 3.0; }
    Real_t qqc() const { return 2.0; }         Real_t dvovmax() const { return 0.1; }
    Real_t dtmax() const { return 1.0e-2; }    Real_t eosvmin() const { return 1.0e-9; }
    Real_t eosvmax() const { return 1.0e9; }   Real_t monoq_max_slope() const { return 1.0; }
    Real_t monoq_limiter_mult() const { return 2.0; }
    Real_t& time() { return m_time; }           Real_t& deltatime() { return m_deltatime; }
    Real_t& dtcourant() { return m_dtcourant; } Real_t& dthydro() { return m_dthydro; }
    Index_t& cycle() { return m_cycle; }
    Index_t numElem() const { return m_numElem; }
    Index_t numNode() const { return m_numNode; }

private:
    Index_t m_numElem, m_numNode;
    std::vector<Real_t> m_x, m_y, m_z, m_xd, m_yd, m_zd, m_xdd, m_ydd, m_zdd;
    std::vector<Real_t> m_fx, m_fy, m_fz, m_nodalMass;
    std::vector<Index_t> m_symmX, m_symmY, m_symmZ;
    std::vector<Index_t> m_nodelist, m_lxim, m_lxip, m_letam, m_letap, m_lzetam, m_lzetap;
    std::vector<Real_t> m_e, m_p, m_q, m_ql, m_qq, m_v, m_volo, m_vnew, m_delv, m_vdov;
    std::vector<Real_t> m_arealg, m_ss, m_elemMass, m_dxx, m_dyy, m_dzz;
    Real_t m_time, m_deltatime, m_dtcourant, m_dthydro;
    Index_t m_cycle;
};

static inline Real_t Cut(Real_t v, Real_t cut) { return std::fabs(v) < cut ? 0.0 : v; }
static inline Real_t AtLeast(Real_t v, Real_t min) { return v < min ? min : v; }

/* --- element geometry (inline helpers, as in LULESH) ------------------------ */

static inline void CollectDomainNodesToElemNodes(Domain& d, const Index_t* nl, Real_t xl[8],
                                                 Real_t yl[8], Real_t zl[8])
{
    for (int i = 0; i < 8; ++i)
        xl[i] = d.x(nl[i]), yl[i] = d.y(nl[i]), zl[i] = d.z(nl[i]);
}

/* LULESH's exact hexahedron volume: three triple products of edge sums. */
static inline Real_t CalcElemVolume(const Real_t x[8], const Real_t y[8], const Real_t z[8])
{
    static const int t[3][8] = {{3, 1, 7, 2, 6, 3, 2, 0}, {4, 3, 5, 7, 6, 4, 7, 0},
                                {1, 4, 2, 5, 6, 1, 5, 0}};
    Real_t volume = 0.0;
    for (const int* k : t) {
        Real_t a[3], b[3], c[3];
        const Real_t* w[3] = {x, y, z};
        for (int r = 0; r < 3; ++r) {
            a[r] = (w[r][k[0]] - w[r][k[1]]) + (w[r][k[2]] - w[r][k[3]]);
            b[r] = w[r][k[4]] - w[r][k[5]], c[r] = w[r][k[6]] - w[r][k[7]];
        }
        volume += a[0] * (b[1] * c[2] - b[2] * c[1]) + b[0] * (c[1] * a[2] - a[1] * c[2])
                  + c[0] * (a[1] * b[2] - b[1] * a[2]);
    }
    return volume / 12.0;
}

/* b[r][i]: the derivative of the volume by coordinate r of node i, from the
 * Jacobian at the centre; *volume: 8 det(J). */
static inline void CalcElemShapeFunctionDerivatives(const Real_t x[8], const Real_t y[8],
                                                    const Real_t z[8], Real_t b[3][8],
                                                    Real_t* volume)
{
    const Real_t* w[3] = {x, y, z};
    Real_t fj[3][3], c[3][3];
    for (int r = 0; r < 3; ++r) {
        Real_t d60 = w[r][6] - w[r][0], d53 = w[r][5] - w[r][3];
        Real_t d71 = w[r][7] - w[r][1], d42 = w[r][4] - w[r][2];
        fj[r][0] = .125 * (d60 + d53 - d71 - d42);
        fj[r][1] = .125 * (d60 - d53 + d71 - d42);
        fj[r][2] = .125 * (d60 + d53 + d71 + d42);
    }
    for (int r = 0; r < 3; ++r) { // the cofactors
        const Real_t *f = fj[(r + 1) % 3], *g = fj[(r + 2) % 3];
        c[r][0] = f[1] * g[2] - f[2] * g[1];
        c[r][1] = f[2] * g[0] - f[0] * g[2];
        c[r][2] = f[0] * g[1] - f[1] * g[0];
    }
    for (int r = 0; r < 3; ++r) {
        b[r][0] = -c[r][0] - c[r][1] - c[r][2], b[r][1] = c[r][0] - c[r][1] - c[r][2];
        b[r][2] = c[r][0] + c[r][1] - c[r][2], b[r][3] = -c[r][0] + c[r][1] - c[r][2];
        b[r][4] = -b[r][2], b[r][5] = -b[r][3], b[r][6] = -b[r][0], b[r][7] = -b[r][1];
    }
    *volume = 8.0 * (fj[0][1] * c[0][1] + fj[1][1] * c[1][1] + fj[2][1] * c[2][1]);
}

static inline Real_t AreaFace(const Real_t x[8], const Real_t y[8], const Real_t z[8],
                              const int f[4])
{
    const Real_t* w[3] = {x, y, z};
    Real_t ff = 0.0, gg = 0.0, fg = 0.0;
    for (int r = 0; r < 3; ++r) {
        Real_t a = w[r][f[2]] - w[r][f[0]], b = w[r][f[3]] - w[r][f[1]];
        ff += (a - b) * (a - b), gg += (a + b) * (a + b), fg += (a - b) * (a + b);
    }
    return ff * gg - fg * fg;
}

static inline Real_t CalcElemCharacteristicLength(const Real_t x[8], const Real_t y[8],
                                                  const Real_t z[8], Real_t volume)
{
    static const int faces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                    {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
    Real_t largest = 0.0;
    for (const int* f : faces)
        largest = AtLeast(AreaFace(x, y, z, f), largest);
    return 4.0 * volume / std::sqrt(largest);
}

#endif
