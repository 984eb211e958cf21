/* A C++ finite-element proxy with std::map/std::vector-heavy assembly (issue
 * 24's second shape), for bench/shapes_cost.py (make bench-apps).
 *
 * Nonlinear diffusion -div((1 + u^2) grad u) = f on a mesh of bilinear
 * quadrilaterals, solved by Picard iterations: each one assembles the
 * stiffness matrix element by element into a std::map<std::pair<int,int>,
 * double> (16 inserts per element, a std::set of Dirichlet nodes looked up
 * for each), converts it to CSR by walking the map, and solves with
 * conjugate gradients.  Written as such mini-apps are: small classes,
 * std::array and std::vector everywhere, element helpers inlined by GCC.
 *
 * MPI: the mesh is cut into strips along y, one per rank, EDGE x EDGE
 * elements each (weak scaling); neighbouring strips share a row of nodes.
 * Each rank keeps its own elements' contributions; a matrix-vector product
 * adds the shared rows of the neighbours (Irecv, Isend, Waitall), and each
 * CG dot product is an MPI_Allreduce over the nodes a rank owns (a shared
 * row belongs to the lower rank).
 *
 * The kernels stay out of line (their profile counts are exact):
 *   Problem::assemble()   once per Picard iteration
 *   cg(...)               once per Picard iteration
 *
 * Usage: fem_proxy [-s EDGE] [-i PICARD] [-c CG_ITERATIONS]
 *        (default -s 120 -i 8 -c 60)
 * Output (rank 0): elapsed_s (the Picard loop, between barriers), then
 * "checksum=...", the same for every build at a given number of ranks.
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <utility>
#include <vector>

#define KERNEL __attribute__((noinline))

struct Point { double x, y; };

/* Gradients of the four bilinear shape functions at (xi, eta), in physical
 * coordinates, and the Jacobian determinant. */
struct ShapeGrad {
    double dx[4], dy[4], detJ;
};

static inline ShapeGrad shape_gradients(const std::array<Point, 4>& p, double xi, double eta)
{
    const double dNxi[4] = {-0.25 * (1 - eta), 0.25 * (1 - eta), 0.25 * (1 + eta),
                            -0.25 * (1 + eta)};
    const double dNeta[4] = {-0.25 * (1 - xi), -0.25 * (1 + xi), 0.25 * (1 + xi),
                             0.25 * (1 - xi)};
    const double j11 = dNxi[0] * p[0].x + dNxi[1] * p[1].x + dNxi[2] * p[2].x + dNxi[3] * p[3].x;
    const double j12 = dNxi[0] * p[0].y + dNxi[1] * p[1].y + dNxi[2] * p[2].y + dNxi[3] * p[3].y;
    const double j21 = dNeta[0] * p[0].x + dNeta[1] * p[1].x + dNeta[2] * p[2].x
                       + dNeta[3] * p[3].x;
    const double j22 = dNeta[0] * p[0].y + dNeta[1] * p[1].y + dNeta[2] * p[2].y
                       + dNeta[3] * p[3].y;
    ShapeGrad g;
    g.detJ = j11 * j22 - j12 * j21;
    const double inv = 1.0 / g.detJ;
    g.dx[0] = inv * (j22 * dNxi[0] - j12 * dNeta[0]);
    g.dy[0] = inv * (-j21 * dNxi[0] + j11 * dNeta[0]);
    g.dx[1] = inv * (j22 * dNxi[1] - j12 * dNeta[1]);
    g.dy[1] = inv * (-j21 * dNxi[1] + j11 * dNeta[1]);
    g.dx[2] = inv * (j22 * dNxi[2] - j12 * dNeta[2]);
    g.dy[2] = inv * (-j21 * dNxi[2] + j11 * dNeta[2]);
    g.dx[3] = inv * (j22 * dNxi[3] - j12 * dNeta[3]);
    g.dy[3] = inv * (-j21 * dNxi[3] + j11 * dNeta[3]);
    return g;
}

/* The conductivity at a Gauss point, from the nodal values. */
static inline double conductivity(const std::array<double, 4>& u, double xi, double eta)
{
    const double n0 = 0.25 * (1 - xi) * (1 - eta), n1 = 0.25 * (1 + xi) * (1 - eta);
    const double n2 = 0.25 * (1 + xi) * (1 + eta), n3 = 0.25 * (1 - xi) * (1 + eta);
    const double uq = n0 * u[0] + n1 * u[1] + n2 * u[2] + n3 * u[3];
    return 1.0 + uq * uq;
}

static inline double source(const Point& c)
{
    const double dx = c.x - 0.5, dy = c.y - 0.25;
    return 10.0 * std::exp(-20.0 * (dx * dx + dy * dy)) + 1.0;
}

class Mesh {
public:
    Mesh(int edge, int rank, int size);
    int num_nodes() const { return (int)coords_.size(); }
    int num_elems() const { return (int)elems_.size(); }
    const std::array<int, 4>& elem(int e) const { return elems_[e]; }
    const Point& coord(int n) const { return coords_[n]; }
    bool owned(int n) const { return owned_[n]; }
    int row() const { return edge_ + 1; }
    int edge() const { return edge_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    const std::set<int>& dirichlet() const { return dirichlet_; }

private:
    int edge_, rank_, size_;
    std::vector<Point> coords_;
    std::vector<std::array<int, 4>> elems_;
    std::vector<char> owned_;
    std::set<int> dirichlet_;
};

Mesh::Mesh(int s, int rank, int size) : edge_(s), rank_(rank), size_(size)
{
    const double h = 1.0 / s;
    for (int j = 0; j <= s; ++j)
        for (int i = 0; i <= s; ++i) {
            // A smooth distortion, so that no two elements are alike.
            const double x = i * h, y = (j + rank * s) * h;
            coords_.push_back({x + 0.1 * h * std::sin(7.0 * y), y + 0.1 * h * std::sin(5.0 * x)});
            owned_.push_back(j < s || rank == size - 1);
            if (i == 0 || i == s || (j == 0 && rank == 0) || (j == s && rank == size - 1))
                dirichlet_.insert(j * (s + 1) + i);
        }
    for (int j = 0; j < s; ++j)
        for (int i = 0; i < s; ++i) {
            const int n = j * (s + 1) + i;
            elems_.push_back({n, n + 1, n + s + 2, n + s + 1});
        }
}

/* Adds the neighbours' values of the shared node rows to this rank's own. */
static void sum_shared_rows(const Mesh& m, std::vector<double>& v)
{
    const int row = m.row(), top = m.num_nodes() - row;
    const int below = m.rank() - 1, above = m.rank() + 1;
    std::vector<double> recv(2 * row);
    MPI_Request req[4];
    int n = 0;
    if (below >= 0) {
        MPI_Irecv(&recv[0], row, MPI_DOUBLE, below, 1, MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(&v[0], row, MPI_DOUBLE, below, 0, MPI_COMM_WORLD, &req[n++]);
    }
    if (above < m.size()) {
        MPI_Irecv(&recv[row], row, MPI_DOUBLE, above, 0, MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(&v[top], row, MPI_DOUBLE, above, 1, MPI_COMM_WORLD, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    // Both ranks add the same two numbers: the shared rows stay identical.
    for (int i = 0; i < row; ++i) {
        if (below >= 0)
            v[i] += recv[i];
        if (above < m.size())
            v[top + i] += recv[row + i];
    }
}

struct CsrMatrix {
    std::vector<int> row_ptr, col;
    std::vector<double> val;

    void multiply(const std::vector<double>& x, std::vector<double>& y) const
    {
        for (size_t r = 0; r + 1 < row_ptr.size(); ++r) {
            double s = 0.0;
            for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
                s += val[k] * x[col[k]];
            y[r] = s;
        }
    }
};

class Problem {
public:
    explicit Problem(const Mesh& m) : mesh_(m), u_(m.num_nodes(), 0.0), rhs_(m.num_nodes()) {}
    KERNEL void assemble();
    const CsrMatrix& matrix() const { return csr_; }
    const std::vector<double>& rhs() const { return rhs_; }
    std::vector<double>& u() { return u_; }

private:
    typedef std::map<std::pair<int, int>, double> Triplets;
    void add_element(Triplets& t, int e);
    const Mesh& mesh_;
    std::vector<double> u_, rhs_;
    CsrMatrix csr_;
};

void Problem::add_element(Triplets& t, int e)
{
    static const double gp = 0.57735026918962573;
    const std::array<int, 4>& nodes = mesh_.elem(e);
    std::array<Point, 4> p;
    std::array<double, 4> ue;
    for (int a = 0; a < 4; ++a)
        p[a] = mesh_.coord(nodes[a]), ue[a] = u_[nodes[a]];
    double ke[4][4] = {{0.0}}, fe[4] = {0.0, 0.0, 0.0, 0.0};
    for (int q = 0; q < 4; ++q) {
        const double xi = (q & 1) ? gp : -gp, eta = (q & 2) ? gp : -gp;
        const ShapeGrad g = shape_gradients(p, xi, eta);
        const double k = conductivity(ue, xi, eta) * g.detJ;
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
                ke[a][b] += k * (g.dx[a] * g.dx[b] + g.dy[a] * g.dy[b]);
        const Point c = {0.25 * (p[0].x + p[1].x + p[2].x + p[3].x),
                         0.25 * (p[0].y + p[1].y + p[2].y + p[3].y)};
        for (int a = 0; a < 4; ++a)
            fe[a] += 0.25 * source(c) * g.detJ;
    }
    const std::set<int>& dir = mesh_.dirichlet();
    for (int a = 0; a < 4; ++a) {
        if (dir.count(nodes[a]))
            continue;
        rhs_[nodes[a]] += fe[a];
        for (int b = 0; b < 4; ++b)
            if (!dir.count(nodes[b]))
                t[std::make_pair(nodes[a], nodes[b])] += ke[a][b];
    }
}

void Problem::assemble()
{
    Triplets t;
    rhs_.assign(rhs_.size(), 0.0);
    for (int e = 0; e < mesh_.num_elems(); ++e)
        add_element(t, e);
    for (int n : mesh_.dirichlet())
        t[std::make_pair(n, n)] = 1.0;
    sum_shared_rows(mesh_, rhs_);
    csr_.row_ptr.assign(1, 0);
    csr_.col.clear();
    csr_.val.clear();
    int row = 0;
    for (Triplets::const_iterator it = t.begin(); it != t.end(); ++it) {
        while (row < it->first.first)
            csr_.row_ptr.push_back((int)csr_.col.size()), ++row;
        csr_.col.push_back(it->first.second);
        csr_.val.push_back(it->second);
    }
    while (row < mesh_.num_nodes())
        csr_.row_ptr.push_back((int)csr_.col.size()), ++row;
}

static double dot(const Mesh& m, const std::vector<double>& a, const std::vector<double>& b)
{
    double local = 0.0, global = 0.0;
    for (size_t i = 0; i < a.size(); ++i)
        if (m.owned((int)i))
            local += a[i] * b[i];
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

/* Plain CG from the previous solution; returns the final residual norm. */
KERNEL double cg(const Mesh& m, const CsrMatrix& A, const std::vector<double>& b,
                 std::vector<double>& x, int iterations)
{
    const size_t n = x.size();
    std::vector<double> r(n), p(n), Ap(n);
    A.multiply(x, Ap);
    sum_shared_rows(m, Ap);
    for (size_t i = 0; i < n; ++i)
        r[i] = b[i] - Ap[i], p[i] = r[i];
    double rr = dot(m, r, r);
    for (int it = 0; it < iterations && rr > 1e-30; ++it) {
        A.multiply(p, Ap);
        sum_shared_rows(m, Ap);
        const double alpha = rr / dot(m, p, Ap);
        for (size_t i = 0; i < n; ++i)
            x[i] += alpha * p[i], r[i] -= alpha * Ap[i];
        const double rr_new = dot(m, r, r);
        for (size_t i = 0; i < n; ++i)
            p[i] = r[i] + (rr_new / rr) * p[i];
        rr = rr_new;
    }
    return std::sqrt(rr);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int edge = 120, picard = 8, cg_iterations = 60;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 < argc && !std::strcmp(argv[i], "-s"))
            edge = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-i"))
            picard = std::atoi(argv[++i]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "-c"))
            cg_iterations = std::atoi(argv[++i]);
        else
            edge = -1;
    }
    if (edge < 2 || edge > 5000 || picard < 1 || cg_iterations < 1) {
        if (rank == 0)
            std::fprintf(stderr, "usage: %s [-s EDGE (2..5000)] [-i PICARD] [-c CG_ITERATIONS]\n",
                         argv[0]);
        MPI_Finalize();
        return 2;
    }
    Mesh mesh(edge, rank, size);
    Problem prob(mesh);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    double residual = 0.0;
    for (int k = 0; k < picard; ++k) {
        prob.assemble();
        residual = cg(mesh, prob.matrix(), prob.rhs(), prob.u(), cg_iterations);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - t0;

    double sums[2] = {0.0, 0.0};
    for (int n = 0; n < mesh.num_nodes(); ++n)
        if (mesh.owned(n))
            sums[0] += prob.u()[n], sums[1] += prob.u()[n] * mesh.coord(n).x;
    std::vector<double> all(2 * (size_t)size);
    MPI_Gather(sums, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double total[2] = {0.0, 0.0};
        for (int r = 0; r < size; ++r)
            total[0] += all[2 * r], total[1] += all[2 * r + 1];
        std::printf("fem_proxy: ranks=%d edge=%d elements=%d picard=%d cg=%d nnz_rank0=%d "
                    "elapsed_s=%.3f\n",
                    size, edge, edge * edge * size, picard, cg_iterations,
                    (int)prob.matrix().val.size(), elapsed);
        std::printf("checksum=%.17g %.17g %.17g\n", total[0], total[1], residual);
    }
    MPI_Finalize();
    return 0;
}
