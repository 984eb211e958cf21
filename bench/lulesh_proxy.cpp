/* A serial proxy of LULESH 2.0 (the Livermore shock-hydrodynamics mini-app)
 * for measuring hooktrace on C++ written the way such codes usually are: a
 * Domain class of std::vector fields, read and written through one-line
 * inline accessors in every hot loop (bench/apps_cost.py, make bench-apps).
 *
 * GCC's -finstrument-functions keeps the hook calls of inlined functions, so
 * every d.x(n) costs two instrumented calls (the accessor and the
 * std::vector::operator[] inside it): the instrumented build makes over a
 * billion calls to functions that do one load.  That is the case hooktrace's
 * throttling is for.
 *
 * The structure is LULESH's (Sedov blast in a corner of a cube of s^3
 * hexahedra, leap-frog step, monotonic-Q-style viscosity, EOS, Courant and
 * volume-change time constraints, same kernel names); the numerics are
 * simplified where that does not change the access pattern.
 *
 * Usage: lulesh_proxy [-s EDGE] [-i ITERATIONS]   (default -s 30 -i 120)
 * Output: sizes and timing, then "checksum=...", the same for every build.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "lulesh_proxy.h"

/* The kernels stay out of line as in LULESH, so the profile shows the call
 * tree a LULESH user knows. */
#define KERNEL __attribute__((noinline))

static void fail(const char* what, Index_t elem)
{
    std::fprintf(stderr, "lulesh_proxy: %s in element %d\n", what, (int)elem);
    std::exit(1);
}

/* --- Domain setup: LULESH's Sedov problem ------------------------------------ */

Domain::Domain(Index_t s)
    : m_numElem(s * s * s), m_numNode((s + 1) * (s + 1) * (s + 1)), m_time(0.0),
      m_dtcourant(1.0e20), m_dthydro(1.0e20), m_cycle(0)
{
    const Index_t en = s + 1;
    for (std::vector<Real_t>* f : {&m_x, &m_y, &m_z, &m_xd, &m_yd, &m_zd, &m_xdd, &m_ydd, &m_zdd,
                                   &m_fx, &m_fy, &m_fz, &m_nodalMass})
        f->assign(m_numNode, 0.0);
    for (std::vector<Real_t>* f : {&m_e, &m_p, &m_q, &m_ql, &m_qq, &m_volo, &m_vnew, &m_delv,
                                   &m_vdov, &m_arealg, &m_ss, &m_elemMass, &m_dxx, &m_dyy, &m_dzz})
        f->assign(m_numElem, 0.0);
    m_v.assign(m_numElem, 1.0);
    m_nodelist.resize(8 * (size_t)m_numElem);
    for (std::vector<Index_t>* f : {&m_lxim, &m_lxip, &m_letam, &m_letap, &m_lzetam, &m_lzetap})
        f->resize(m_numElem);
    const Real_t h = 1.125 / s;
    for (Index_t n = 0; n < m_numNode; ++n)
        m_x[n] = (n % en) * h, m_y[n] = (n / en % en) * h, m_z[n] = (n / en / en) * h;
    for (Index_t el = 0; el < m_numElem; ++el) {
        const Index_t i = el % s, j = el / s % s, k = el / s / s, n = (k * en + j) * en + i;
        const Index_t nl[8] = {n, n + 1, n + en + 1, n + en, n + en * en, n + en * en + 1,
                               n + en * en + en + 1, n + en * en + en};
        std::memcpy(nodelist(el), nl, sizeof nl);
        // A boundary element is its own neighbour, as in LULESH.
        m_lxim[el] = i > 0 ? el - 1 : el, m_lxip[el] = i < s - 1 ? el + 1 : el;
        m_letam[el] = j > 0 ? el - s : el, m_letap[el] = j < s - 1 ? el + s : el;
        m_lzetam[el] = k > 0 ? el - s * s : el, m_lzetap[el] = k < s - 1 ? el + s * s : el;
        Real_t xl[8], yl[8], zl[8];
        CollectDomainNodesToElemNodes(*this, nl, xl, yl, zl);
        m_volo[el] = m_elemMass[el] = CalcElemVolume(xl, yl, zl);
        for (int c = 0; c < 8; ++c)
            m_nodalMass[nl[c]] += m_volo[el] / 8.0;
    }
    for (Index_t a = 0; a < en; ++a) // the symmetry planes x = 0, y = 0, z = 0
        for (Index_t b = 0; b < en; ++b) {
            m_symmX.push_back((a * en + b) * en);
            m_symmY.push_back(a * en * en + b);
            m_symmZ.push_back(a * en + b);
        }
    const Real_t einit = 3.948746e+7 * std::pow(s / 45.0, 3);
    m_e[0] = einit;
    m_deltatime = 0.5 * std::cbrt(m_volo[0]) / std::sqrt(2.0 * einit);
}

/* --- the kernels -------------------------------------------------------------- */

KERNEL void IntegrateStressForElems(Domain& d)
{
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Index_t* nl = d.nodelist(k);
        Real_t xl[8], yl[8], zl[8], B[3][8], determ;
        CollectDomainNodesToElemNodes(d, nl, xl, yl, zl);
        CalcElemShapeFunctionDerivatives(xl, yl, zl, B, &determ);
        if (determ <= 0.0)
            fail("non-positive Jacobian", k);
        const Real_t sig = d.p(k) + d.q(k); // the force is (p + q) dV/dx
        for (int i = 0; i < 8; ++i) {
            d.fx(nl[i]) += sig * B[0][i];
            d.fy(nl[i]) += sig * B[1][i];
            d.fz(nl[i]) += sig * B[2][i];
        }
    }
}

KERNEL void CalcHourglassControlForElems(Domain& d)
{
    static const Real_t gamma[4][8] = {{1., 1., -1., -1., -1., -1., 1., 1.},
                                       {1., -1., -1., 1., -1., 1., 1., -1.},
                                       {1., -1., 1., -1., 1., -1., 1., -1.},
                                       {-1., 1., -1., 1., 1., -1., 1., -1.}};
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Index_t* nl = d.nodelist(k);
        Real_t xl[8], yl[8], zl[8], xdl[8], ydl[8], zdl[8], B[3][8], determ, hg[4][8];
        CollectDomainNodesToElemNodes(d, nl, xl, yl, zl);
        CalcElemShapeFunctionDerivatives(xl, yl, zl, B, &determ);
        // Flanagan-Belytschko: the hourglass modes made orthogonal to the
        // element's linear fields, so that they damp only hourglassing.
        for (int m = 0; m < 4; ++m) {
            Real_t hx = 0.0, hy = 0.0, hz = 0.0;
            for (int i = 0; i < 8; ++i)
                hx += xl[i] * gamma[m][i], hy += yl[i] * gamma[m][i], hz += zl[i] * gamma[m][i];
            for (int i = 0; i < 8; ++i)
                hg[m][i] = gamma[m][i] - (B[0][i] * hx + B[1][i] * hy + B[2][i] * hz) / determ;
        }
        for (int i = 0; i < 8; ++i)
            xdl[i] = d.xd(nl[i]), ydl[i] = d.yd(nl[i]), zdl[i] = d.zd(nl[i]);
        const Real_t coefficient = -d.hgcoef() * 0.01 * d.ss(k) * d.elemMass(k)
                                   / std::cbrt(d.volo(k) * d.v(k));
        Real_t hxx[4] = {0.0}, hyy[4] = {0.0}, hzz[4] = {0.0};
        for (int m = 0; m < 4; ++m)
            for (int i = 0; i < 8; ++i)
                hxx[m] += hg[m][i] * xdl[i], hyy[m] += hg[m][i] * ydl[i], hzz[m] += hg[m][i] * zdl[i];
        for (int i = 0; i < 8; ++i) {
            Real_t gx = 0.0, gy = 0.0, gz = 0.0;
            for (int m = 0; m < 4; ++m)
                gx += hg[m][i] * hxx[m], gy += hg[m][i] * hyy[m], gz += hg[m][i] * hzz[m];
            d.fx(nl[i]) += coefficient * gx;
            d.fy(nl[i]) += coefficient * gy;
            d.fz(nl[i]) += coefficient * gz;
        }
    }
}

KERNEL void CalcForceForNodes(Domain& d)
{
    for (Index_t n = 0; n < d.numNode(); ++n)
        d.fx(n) = d.fy(n) = d.fz(n) = 0.0;
    IntegrateStressForElems(d);
    CalcHourglassControlForElems(d);
}

KERNEL void LagrangeNodal(Domain& d)
{
    CalcForceForNodes(d);
    for (Index_t n = 0; n < d.numNode(); ++n) {
        d.xdd(n) = d.fx(n) / d.nodalMass(n);
        d.ydd(n) = d.fy(n) / d.nodalMass(n);
        d.zdd(n) = d.fz(n) / d.nodalMass(n);
    }
    for (Index_t i = 0; i < d.numSymm(); ++i)
        d.xdd(d.symmX(i)) = d.ydd(d.symmY(i)) = d.zdd(d.symmZ(i)) = 0.0;
    const Real_t dt = d.deltatime();
    for (Index_t n = 0; n < d.numNode(); ++n) {
        d.xd(n) = Cut(d.xd(n) + d.xdd(n) * dt, d.u_cut());
        d.yd(n) = Cut(d.yd(n) + d.ydd(n) * dt, d.u_cut());
        d.zd(n) = Cut(d.zd(n) + d.zdd(n) * dt, d.u_cut());
    }
    for (Index_t n = 0; n < d.numNode(); ++n) {
        d.x(n) += d.xd(n) * dt;
        d.y(n) += d.yd(n) * dt;
        d.z(n) += d.zd(n) * dt;
    }
}

KERNEL void CalcKinematicsForElems(Domain& d, Real_t dt)
{
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Index_t* nl = d.nodelist(k);
        Real_t xl[8], yl[8], zl[8], xdl[8], ydl[8], zdl[8], B[3][8], detJ;
        CollectDomainNodesToElemNodes(d, nl, xl, yl, zl);
        const Real_t volume = CalcElemVolume(xl, yl, zl);
        d.vnew(k) = volume / d.volo(k);
        d.delv(k) = d.vnew(k) - d.v(k);
        d.arealg(k) = CalcElemCharacteristicLength(xl, yl, zl, volume);
        for (int i = 0; i < 8; ++i) { // the velocity gradient is taken at the half step
            xdl[i] = d.xd(nl[i]), ydl[i] = d.yd(nl[i]), zdl[i] = d.zd(nl[i]);
            xl[i] -= 0.5 * dt * xdl[i], yl[i] -= 0.5 * dt * ydl[i], zl[i] -= 0.5 * dt * zdl[i];
        }
        CalcElemShapeFunctionDerivatives(xl, yl, zl, B, &detJ);
        Real_t D[3] = {0.0, 0.0, 0.0};
        const Real_t* vel[3] = {xdl, ydl, zdl};
        for (int r = 0; r < 3; ++r)
            for (int i = 0; i < 4; ++i)
                D[r] += B[r][i] * (vel[r][i] - vel[r][(i + 2) % 4 + 4]) / detJ;
        d.dxx(k) = D[0], d.dyy(k) = D[1], d.dzz(k) = D[2];
    }
}

KERNEL void CalcLagrangeElements(Domain& d)
{
    CalcKinematicsForElems(d, d.deltatime());
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Real_t vdov = d.dxx(k) + d.dyy(k) + d.dzz(k);
        d.vdov(k) = vdov;
        // The deviatoric part, kept as LULESH does although only vdov is used.
        d.dxx(k) -= vdov / 3.0, d.dyy(k) -= vdov / 3.0, d.dzz(k) -= vdov / 3.0;
        if (d.vnew(k) <= 0.0)
            fail("non-positive volume", k);
    }
}

/* LULESH limits with per-direction gradients; vdov of the two neighbours in
 * each direction reads the same way (indirectly, through lxim...). */
static inline Real_t Limiter(Domain& d, Index_t k, Index_t lm, Index_t lp)
{
    const Real_t norm = 1.0 / (d.vdov(k) + 1.0e-36);
    Real_t delvm = d.vdov(lm) * norm, delvp = d.vdov(lp) * norm;
    Real_t phi = 0.5 * (delvm + delvp);
    delvm *= d.monoq_limiter_mult(), delvp *= d.monoq_limiter_mult();
    phi = delvm < phi ? delvm : phi;
    phi = delvp < phi ? delvp : phi;
    phi = AtLeast(phi, 0.0);
    return phi > d.monoq_max_slope() ? d.monoq_max_slope() : phi;
}

KERNEL void CalcQForElems(Domain& d)
{
    for (Index_t k = 0; k < d.numElem(); ++k) {
        if (d.vdov(k) >= 0.0) {
            d.ql(k) = d.qq(k) = 0.0;
            continue;
        }
        const Real_t phi[3] = {Limiter(d, k, d.lxim(k), d.lxip(k)),
                               Limiter(d, k, d.letam(k), d.letap(k)),
                               Limiter(d, k, d.lzetam(k), d.lzetap(k))};
        const Real_t rho = d.elemMass(k) / (d.volo(k) * d.vnew(k));
        const Real_t delvx = d.vdov(k) * d.arealg(k);
        Real_t lin = 0.0, quad = 0.0;
        for (int dir = 0; dir < 3; ++dir)
            lin += 1.0 - phi[dir], quad += 1.0 - phi[dir] * phi[dir];
        d.ql(k) = -d.qlc_monoq() * rho * delvx * lin;
        d.qq(k) = d.qqc_monoq() * rho * delvx * delvx * quad;
        if (d.ql(k) + d.qq(k) > d.qstop())
            fail("Q too large", k);
    }
}

/* Ideal gas, gamma = 5/3, reference density 1. */
static inline Real_t Pressure(Domain& d, Real_t e, Real_t vnew)
{
    return AtLeast(Cut((2.0 / 3.0) * e / vnew, d.p_cut()), d.pmin());
}

static inline Real_t SoundSpeed(Real_t e, Real_t p, Real_t vnew)
{
    const Real_t ss2 = (2.0 / 3.0) * (e + vnew * p);
    return ss2 <= 1.111111e-37 ? 0.3333333e-18 : std::sqrt(ss2);
}

KERNEL void ApplyMaterialPropertiesForElems(Domain& d)
{
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Real_t vnewc = std::fmin(AtLeast(d.vnew(k), d.eosvmin()), d.eosvmax());
        const Real_t delvc = d.delv(k), pq_old = d.p(k) + d.q(k), ql = d.ql(k), qq = d.qq(k);
        // LULESH's three-stage energy update (predictor, corrector, final).
        Real_t e_new = AtLeast(d.e(k) - 0.5 * delvc * pq_old, d.emin());
        const Real_t p_half = Pressure(d, e_new, vnewc);
        const Real_t q_half = delvc > 0.0 ? 0.0 : SoundSpeed(e_new, p_half, vnewc) * ql + qq;
        e_new += 0.5 * delvc * (3.0 * pq_old - 4.0 * (p_half + q_half));
        e_new = AtLeast(Cut(e_new, d.e_cut()), d.emin());
        Real_t p_new = Pressure(d, e_new, vnewc);
        const Real_t q_tilde = delvc > 0.0 ? 0.0 : SoundSpeed(e_new, p_new, vnewc) * ql + qq;
        e_new -= (7.0 * pq_old - 8.0 * (p_half + q_half) + (p_new + q_tilde)) * delvc / 6.0;
        e_new = AtLeast(Cut(e_new, d.e_cut()), d.emin());
        p_new = Pressure(d, e_new, vnewc);
        const Real_t ss = SoundSpeed(e_new, p_new, vnewc);
        d.e(k) = e_new;
        d.p(k) = p_new;
        d.q(k) = delvc > 0.0 ? 0.0 : Cut(ss * ql + qq, d.q_cut());
        d.ss(k) = ss;
    }
    for (Index_t k = 0; k < d.numElem(); ++k)
        d.v(k) = d.vnew(k);
}

KERNEL void CalcTimeConstraintsForElems(Domain& d)
{
    Real_t dtcourant = 1.0e20, dthydro = 1.0e20;
    const Real_t qqc2 = 64.0 * d.qqc() * d.qqc();
    for (Index_t k = 0; k < d.numElem(); ++k) {
        const Real_t vdov = d.vdov(k);
        if (vdov == 0.0)
            continue;
        Real_t dtf = d.ss(k) * d.ss(k);
        if (vdov < 0.0)
            dtf += qqc2 * d.arealg(k) * d.arealg(k) * vdov * vdov;
        dtcourant = std::fmin(d.arealg(k) / std::sqrt(dtf), dtcourant);
        dthydro = std::fmin(d.dvovmax() / (std::fabs(vdov) + 1.0e-20), dthydro);
    }
    d.dtcourant() = dtcourant;
    d.dthydro() = dthydro;
}

KERNEL void TimeIncrement(Domain& d)
{
    if (d.cycle() != 0) {
        const Real_t olddt = d.deltatime();
        Real_t newdt = 1.0e20;
        if (d.dtcourant() < newdt)
            newdt = d.dtcourant() / 2.0;
        if (d.dthydro() < newdt)
            newdt = d.dthydro() * 2.0 / 3.0;
        const Real_t ratio = newdt / olddt;
        if (ratio >= 1.0)
            newdt = ratio < 1.1 ? olddt : ratio > 1.2 ? olddt * 1.2 : newdt;
        d.deltatime() = std::fmin(newdt, d.dtmax());
    }
    d.time() += d.deltatime();
    ++d.cycle();
}

KERNEL void LagrangeLeapFrog(Domain& d)
{
    LagrangeNodal(d);
    CalcLagrangeElements(d);
    CalcQForElems(d);
    ApplyMaterialPropertiesForElems(d);
    CalcTimeConstraintsForElems(d);
}

int main(int argc, char** argv)
{
    Index_t edge = 30, iterations = 120;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 < argc && !std::strcmp(argv[i], "-s"))
            edge = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-i"))
            iterations = std::atoi(argv[++i]);
        else
            edge = -1;
    }
    if (edge < 2 || edge > 400 || iterations < 1) {
        std::fprintf(stderr, "usage: %s [-s EDGE (2..400)] [-i ITERATIONS]\n", argv[0]);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Domain d(edge);
    while (d.cycle() < iterations) {
        TimeIncrement(d);
        LagrangeLeapFrog(d);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);

    // Energy, pressure and positions all enter the checksum, so that a
    // difference anywhere in the step shows.
    Real_t esum = 0.0, psum = 0.0, xsum = 0.0;
    for (Index_t k = 0; k < d.numElem(); ++k)
        esum += d.e(k), psum += d.p(k);
    for (Index_t n = 0; n < d.numNode(); ++n)
        xsum += d.x(n) + d.y(n) + d.z(n);
    std::printf("lulesh_proxy: edge=%d elements=%d iterations=%d time=%.6e dt=%.6e "
                "origin_energy=%.6e elapsed_s=%.3f\n",
                (int)edge, (int)d.numElem(), (int)d.cycle(), d.time(), d.deltatime(), d.e(0),
                (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    std::printf("checksum=%.17g %.17g %.17g\n", esum, psum, xsum);
    return 0;
}
