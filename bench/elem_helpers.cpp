/* Inlined medium-size helpers in hot element loops (issue 24's first shape),
 * for bench/shapes_cost.py (make bench-apps).
 *
 * A 2-D compressible-gas finite-volume solver written as such codes are: the
 * cell loops and face loops call helpers of 12-30 statements with no loop
 * (conserved-to-primitive conversion, an HLL Riemann flux, a slope limiter,
 * a wave-speed bound), declared inline in a class, which GCC inlines at -O2.
 * Under plain -finstrument-functions every inlined copy keeps its two hook
 * calls inside the loop, and the loop keeps the spills those calls force on
 * it even after throttling has made the calls no-ops.
 *
 * The kernels (the sweeps, the time step) stay out of line, so the profile
 * of an instrumented build shows them with exact call counts:
 *   Solver::sweep_x(double), Solver::sweep_y(double)   once per step each
 *   Solver::max_wave_speed()                           once per step
 *
 * Usage: elem_helpers [-n EDGE] [-i STEPS]   (default -n 300 -i 50)
 * Output: "elem_helpers: ... elapsed_s=S" then "checksum=...", the same for
 * every build (no -ffast-math: GCC and clang keep the same arithmetic).
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define KERNEL __attribute__((noinline))

struct Cons { double rho, mx, my, E; };
struct Prim { double rho, u, v, p, c; };

class Solver {
public:
    Solver(int n);
    KERNEL void sweep_x(double dtdx);
    KERNEL void sweep_y(double dtdy);
    KERNEL double max_wave_speed();
    double checksum(int k) const;
    int n() const { return n_; }

    /* 12-30 statement helpers, no loop: what GCC inlines into the loops. */
    inline Prim to_prim(const Cons& q) const
    {
        Prim w;
        const double rho = q.rho > rho_floor_ ? q.rho : rho_floor_;
        const double inv = 1.0 / rho;
        w.rho = rho;
        w.u = q.mx * inv;
        w.v = q.my * inv;
        const double kin = 0.5 * rho * (w.u * w.u + w.v * w.v);
        double p = (gamma_ - 1.0) * (q.E - kin);
        if (p < p_floor_)
            p = p_floor_;
        w.p = p;
        w.c = std::sqrt(gamma_ * p * inv);
        return w;
    }

    /* minmod-limited slope of three values */
    inline double limited_slope(double a, double b, double c) const
    {
        const double dl = b - a, dr = c - b;
        if (dl * dr <= 0.0)
            return 0.0;
        const double s = dl > 0.0 ? 1.0 : -1.0;
        const double al = std::fabs(dl), ar = std::fabs(dr);
        double m = al < ar ? al : ar;
        const double centred = 0.5 * std::fabs(dl + dr);
        if (centred < 2.0 * m)
            m = centred < m ? m : centred;
        if (m > limiter_cap_ * al)
            m = limiter_cap_ * al;
        return s * m;
    }

    /* HLL flux in the normal direction (un: velocity along the normal, ut:
     * across it), as an x-direction flux; the y sweep swaps the momenta. */
    inline Cons hll_flux(const Prim& L, const Prim& R) const
    {
        const double EL = L.p / (gamma_ - 1.0) + 0.5 * L.rho * (L.u * L.u + L.v * L.v);
        const double ER = R.p / (gamma_ - 1.0) + 0.5 * R.rho * (R.u * R.u + R.v * R.v);
        const double sl = std::fmin(L.u - L.c, R.u - R.c);
        const double sr = std::fmax(L.u + L.c, R.u + R.c);
        Cons fl, fr, f;
        fl.rho = L.rho * L.u;
        fl.mx = L.rho * L.u * L.u + L.p;
        fl.my = L.rho * L.u * L.v;
        fl.E = (EL + L.p) * L.u;
        fr.rho = R.rho * R.u;
        fr.mx = R.rho * R.u * R.u + R.p;
        fr.my = R.rho * R.u * R.v;
        fr.E = (ER + R.p) * R.u;
        if (sl >= 0.0)
            return fl;
        if (sr <= 0.0)
            return fr;
        const double inv = 1.0 / (sr - sl);
        f.rho = (sr * fl.rho - sl * fr.rho + sl * sr * (R.rho - L.rho)) * inv;
        f.mx = (sr * fl.mx - sl * fr.mx + sl * sr * (R.rho * R.u - L.rho * L.u)) * inv;
        f.my = (sr * fl.my - sl * fr.my + sl * sr * (R.rho * R.v - L.rho * L.v)) * inv;
        f.E = (sr * fl.E - sl * fr.E + sl * sr * (ER - EL)) * inv;
        return f;
    }

    /* The primitive state at a face, reconstructed from a cell and its two
     * neighbours along the sweep (side: +1 right face, -1 left face). */
    inline Prim reconstruct(const Prim& a, const Prim& b, const Prim& c, double side) const
    {
        Prim w;
        w.rho = b.rho + 0.5 * side * limited_slope(a.rho, b.rho, c.rho);
        w.u = b.u + 0.5 * side * limited_slope(a.u, b.u, c.u);
        w.v = b.v + 0.5 * side * limited_slope(a.v, b.v, c.v);
        w.p = b.p + 0.5 * side * limited_slope(a.p, b.p, c.p);
        if (w.rho < rho_floor_)
            w.rho = rho_floor_;
        if (w.p < p_floor_)
            w.p = p_floor_;
        w.c = std::sqrt(gamma_ * w.p / w.rho);
        return w;
    }

    inline Prim swap_uv(Prim w) const
    {
        const double t = w.u;
        w.u = w.v;
        w.v = t;
        return w;
    }

    inline void apply(Cons& q, const Cons& fl, const Cons& fr, double r, bool swapped) const
    {
        q.rho -= r * (fr.rho - fl.rho);
        if (swapped) {
            q.my -= r * (fr.mx - fl.mx);
            q.mx -= r * (fr.my - fl.my);
        } else {
            q.mx -= r * (fr.mx - fl.mx);
            q.my -= r * (fr.my - fl.my);
        }
        q.E -= r * (fr.E - fl.E);
        if (q.rho < rho_floor_)
            q.rho = rho_floor_;
    }

    Cons& at(int i, int j) { return q_[(size_t)j * n_ + i]; }
    int clampi(int i) const { return i < 0 ? 0 : i >= n_ ? n_ - 1 : i; }

private:
    int n_;
    std::vector<Cons> q_, tmp_;
    const double gamma_ = 1.4, rho_floor_ = 1e-10, p_floor_ = 1e-10, limiter_cap_ = 2.0;
};

Solver::Solver(int n) : n_(n), q_((size_t)n * n), tmp_((size_t)n * n)
{
    // Two gases and a blast off-centre: shocks cross every direction.
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double x = (i + 0.5) / n, y = (j + 0.5) / n;
            const double r2 = (x - 0.3) * (x - 0.3) + (y - 0.4) * (y - 0.4);
            Cons& c = at(i, j);
            c.rho = x + 0.3 * y < 0.6 ? 1.0 : 0.125;
            c.mx = c.my = 0.0;
            c.E = (r2 < 0.01 ? 10.0 : c.rho < 0.5 ? 0.1 : 1.0) / 0.4;
        }
}

void Solver::sweep_x(double r)
{
    for (int j = 0; j < n_; ++j) {
        Cons* row = &q_[(size_t)j * n_];
        Cons* out = &tmp_[(size_t)j * n_];
        for (int i = 0; i < n_; ++i) {
            const Prim a = to_prim(row[clampi(i - 2)]), b = to_prim(row[clampi(i - 1)]);
            const Prim c = to_prim(row[i]), d = to_prim(row[clampi(i + 1)]);
            const Prim e = to_prim(row[clampi(i + 2)]);
            const Cons fl = hll_flux(reconstruct(a, b, c, 1.0), reconstruct(b, c, d, -1.0));
            const Cons fr = hll_flux(reconstruct(b, c, d, 1.0), reconstruct(c, d, e, -1.0));
            out[i] = row[i];
            apply(out[i], fl, fr, r, false);
        }
    }
    q_.swap(tmp_);
}

void Solver::sweep_y(double r)
{
    for (int j = 0; j < n_; ++j) {
        for (int i = 0; i < n_; ++i) {
            const Prim a = swap_uv(to_prim(at(i, clampi(j - 2))));
            const Prim b = swap_uv(to_prim(at(i, clampi(j - 1))));
            const Prim c = swap_uv(to_prim(at(i, j)));
            const Prim d = swap_uv(to_prim(at(i, clampi(j + 1))));
            const Prim e = swap_uv(to_prim(at(i, clampi(j + 2))));
            const Cons fl = hll_flux(reconstruct(a, b, c, 1.0), reconstruct(b, c, d, -1.0));
            const Cons fr = hll_flux(reconstruct(b, c, d, 1.0), reconstruct(c, d, e, -1.0));
            Cons& o = tmp_[(size_t)j * n_ + i];
            o = at(i, j);
            apply(o, fl, fr, r, true);
        }
    }
    q_.swap(tmp_);
}

double Solver::max_wave_speed()
{
    double s = 0.0;
    for (const Cons& q : q_) {
        const Prim w = to_prim(q);
        const double a = std::fabs(w.u) + w.c, b = std::fabs(w.v) + w.c;
        s = std::fmax(s, std::fmax(a, b));
    }
    return s;
}

double Solver::checksum(int k) const
{
    double s = 0.0;
    for (size_t i = 0; i < q_.size(); ++i)
        s += (k == 0 ? q_[i].rho : k == 1 ? q_[i].E : q_[i].mx + 2.0 * q_[i].my) * (1.0 + (i % 7));
    return s;
}

int main(int argc, char** argv)
{
    int n = 300, steps = 50;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 < argc && !std::strcmp(argv[i], "-n"))
            n = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-i"))
            steps = std::atoi(argv[++i]);
        else
            n = -1;
    }
    if (n < 8 || n > 20000 || steps < 1) {
        std::fprintf(stderr, "usage: %s [-n EDGE (8..20000)] [-i STEPS]\n", argv[0]);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Solver s(n);
    const double h = 1.0 / n;
    double t = 0.0;
    for (int k = 0; k < steps; ++k) {
        const double dt = 0.4 * h / s.max_wave_speed();
        s.sweep_x(dt / h);
        s.sweep_y(dt / h);
        t += dt;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    std::printf("elem_helpers: edge=%d steps=%d time=%.6e elapsed_s=%.3f\n", n, steps, t,
                (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    std::printf("checksum=%.17g %.17g %.17g\n", s.checksum(0), s.checksum(1), s.checksum(2));
    return 0;
}
