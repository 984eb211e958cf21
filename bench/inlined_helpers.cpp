/* A proxy of the shape issue 24 measured in a LULESH-style hydro code
 * (bench/inlined_cost.py, docs/plugin.md): loops over elements whose bodies
 * call medium-size helpers (12-30 statements, no loop) that GCC inlines at
 * -O2, and kernels with a loop inlined into the driver of each step.
 * Serial, no MPI: the cost measured is the hooks' in the loops.
 *
 * Usage: inlined_helpers [ELEMENTS [STEPS]]   (default 200000 100)
 * Output: "inlined_helpers: ... elapsed_s=S" (its own step loop), then
 * "checksum=...", as bench/benchlib.py reads them. */
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Mesh {
    std::vector<double> x, y, z, xd, yd, zd, e, p, q, v, ss, mass;
    explicit Mesh(int n)
        : x(n), y(n), z(n), xd(n), yd(n), zd(n), e(n), p(n), q(n), v(n), ss(n), mass(n)
    {
        for (int i = 0; i < n; i++) {
            x[i] = 0.001 * i;
            y[i] = 0.5 + 0.0005 * i;
            z[i] = 1.0 - 0.0002 * i;
            xd[i] = yd[i] = zd[i] = 0.0;
            e[i] = 1.0 + 1e-6 * i;
            p[i] = 0.4;
            q[i] = 0.0;
            v[i] = 1.0;
            ss[i] = 0.1;
            mass[i] = 1.0 + 1e-7 * i;
        }
    }
};

/* Medium helpers, no loop (in LULESH: CalcElemVolume, the EOS pieces,
 * the artificial viscosity terms). */
inline double element_volume(double x, double y, double z, double scale)
{
    double a = x * y - z * scale, b = y * z + x * 0.5, c = z * x - y * 0.25;
    double d = a * b - c, f = b * c + a * 0.125, g = c * a - b * 0.0625;
    double h = d + f + g;
    if (h < 1e-12)
        h = 1e-12;
    double k = h * scale + a * 1e-3;
    return k > 0.0 ? k : -k;
}

inline double pressure(double e, double v, double q, double gamma)
{
    double c1 = gamma - 1.0, rho = 1.0 / (v + 1e-9), pe = c1 * rho * e;
    double bvc = c1 * rho, pbvc = c1 * 0.5;
    double pn = pe + bvc * q * 1e-3 - pbvc * q * q * 1e-6;
    if (pn < 1e-10)
        pn = 0.0;
    if (pn > 1e10)
        pn = 1e10;
    double ss = pbvc * e + v * v * bvc * pn;
    return pn + (ss < 1e-12 ? 0.0 : 1e-9 * ss);
}

inline double viscosity(double xd, double yd, double zd, double v, double ss)
{
    double dv = xd - yd, dw = yd - zd, du = zd - xd;
    double div = dv + dw + du, lin = 0.5 * ss * std::fabs(div);
    double quad = 2.0 * div * div * v;
    double q = div < 0.0 ? lin + quad : 0.0;
    double limiter = dv * dw > 0.0 ? 0.5 : 1.0;
    if (q > 1e3)
        q = 1e3;
    return q * limiter;
}

inline void accelerate(double &xd, double &yd, double &zd, double p, double q, double mass, double dt)
{
    double f = (p + q) / mass, fx = f * 0.57735, fy = f * 0.57735, fz = f * 0.57735;
    double ax = -fx * dt, ay = -fy * dt, az = -fz * dt;
    xd += ax;
    yd += ay;
    zd += az;
    if (std::fabs(xd) < 1e-12)
        xd = 0.0;
    if (std::fabs(yd) < 1e-12)
        yd = 0.0;
    if (std::fabs(zd) < 1e-12)
        zd = 0.0;
}

/* Kernels with a loop, inlined into the step's driver. */
inline double total_energy(const Mesh &m, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += m.e[i] * m.mass[i];
    return s;
}

inline double courant(const Mesh &m, int n)
{
    double dt = 1e20;
    for (int i = 0; i < n; i++) {
        double c = m.v[i] / (m.ss[i] + 1e-9);
        if (c < dt)
            dt = c;
    }
    return dt;
}

__attribute__((noinline)) void lagrange_elements(Mesh &m, int n, double dt)
{
    for (int i = 0; i < n; i++) {
        m.v[i] = element_volume(m.x[i], m.y[i], m.z[i], 1.0 + 1e-3 * dt);
        m.q[i] = viscosity(m.xd[i], m.yd[i], m.zd[i], m.v[i], m.ss[i]);
        m.p[i] = pressure(m.e[i], m.v[i], m.q[i], 1.4);
        m.e[i] = m.e[i] * 0.999999 + 1e-9 * m.p[i];
    }
}

__attribute__((noinline)) void lagrange_nodes(Mesh &m, int n, double dt)
{
    for (int i = 0; i < n; i++) {
        accelerate(m.xd[i], m.yd[i], m.zd[i], m.p[i], m.q[i], m.mass[i], dt);
        m.x[i] += m.xd[i] * dt;
        m.y[i] += m.yd[i] * dt;
        m.z[i] += m.zd[i] * dt;
    }
}

__attribute__((noinline)) double step(Mesh &m, int n, double dt)
{
    lagrange_nodes(m, n, dt);
    lagrange_elements(m, n, dt);
    double c = courant(m, n);
    return c < dt ? c : dt;
}

} // namespace

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200000;
    int steps = argc > 2 ? std::atoi(argv[2]) : 100;
    Mesh m(n);
    double dt = 1e-3, energy = 0.0;
    auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; s++) {
        dt = step(m, n, dt);
        energy = total_energy(m, n);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("inlined_helpers: elements=%d steps=%d elapsed_s=%.6f\n", n, steps, seconds);
    std::printf("checksum=%.9e\n", energy);
    return 0;
}
