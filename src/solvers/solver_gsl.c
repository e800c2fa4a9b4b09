/* SPDX-License-Identifier: MIT */
/* GSL odeiv2 steppers (rkf45, rk8pd, rk4imp) on the flat state y = (q, v), adaptive substeps */
#include "solvers/tc_solver.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* parameters of the explicit adaptive steppers; the implicit one adds jac_step */
/* clang-format off */
#define ADAPTIVE_PARAMS                                                                          \
    {"rtol", 1e-8, 0, 1e-2, TC_PARAM_REAL, "1", "relative error tolerance per substep",          \
     "8 digits: well below model differences, still few substeps in free flight"},               \
    {"atol", 1e-10, 1e-16, 1, TC_PARAM_REAL, "state",                                            \
     "absolute error tolerance per substep, in each entry's unit (m, 1, rad, m/s, rad/s)",       \
     "0.1 nm / 0.1 nm/s: the relative tolerance of a 1 cm, 1 cm/s state; must be > 0"},          \
    {"hmin", 1e-12, 0, 1, TC_PARAM_REAL, "s",                                                    \
     "smallest adaptive substep before the step fails (TC_EDIVERGED)",                           \
     "nine orders below the 1 ms steps used here: a substep that small is a singularity"},       \
    {"max_substeps", 100000, 1, 1e9, TC_PARAM_ITERS, "1",                                          \
     "substep budget of one touche step (GSL's driver nmax); beyond it: TC_EDIVERGED",           \
     "bounds the cost of one step; a run needing more is stiff: use rk4imp or a smaller dt"}
/* clang-format on */

static const tc_param_spec explicit_params[] = {ADAPTIVE_PARAMS,
                                                {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

static const tc_param_spec implicit_params[] = {
    ADAPTIVE_PARAMS,
    {"jac_step", 1.49e-8, 1e-12, 1e-2, TC_PARAM_REAL, "1",
     "relative finite-difference step of the Jacobian: dy_j = jac_step * max(|y_j|, 1)",
     "sqrt(machine epsilon): balances truncation and round-off of a forward difference"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* one GSL stepper: its type (the address of GSL's exported pointer) and whether it needs a
 * Jacobian; the descriptors at the end of the file pick an entry by index */
typedef struct stepper {
    const gsl_odeiv2_step_type *const *type;
    int implicit;
} stepper;

static const stepper steppers[] = {
    {&gsl_odeiv2_step_rkf45, 0},
    {&gsl_odeiv2_step_rk8pd, 0},
    {&gsl_odeiv2_step_rk4imp, 1},
};

/* a run's workspace: the driver, the flat state and the Jacobian's buffers */
typedef struct gsl_state {
    const tc_system *sys;
    const tc_ode *ode; /* the step's ODE, set at each step */
    tc_status status;  /* first failure of accel in the current step */
    int nq, nv, dim;
    int started; /* the driver's first substep has been set to dt */
    double hmin, jac_step;
    gsl_odeiv2_system gsys;
    gsl_odeiv2_driver *drv;
    double *y;            /* flat state (q, v), dim */
    double *f0, *f1, *yp; /* Jacobian: base and perturbed derivative, perturbed state */
} gsl_state;

/* GSL's default error handler prints and aborts; every GSL return value is checked here */
static once_flag handler_once = ONCE_FLAG_INIT;
static void handler_off(void) {
    gsl_set_error_handler_off();
}

/* the flat derivative dy/dt = (qdot(q, v), accel(q, v)) */
static int flat_f(double t, const double y[], double dydt[], void *params) {
    gsl_state *s = params;
    const double *q = y, *v = y + s->nq;
    tc_system_qdot(s->sys, q, v, dydt);
    tc_status st = s->ode->accel(s->ode->ctx, t, q, v, dydt + s->nq);
    if (st) {
        if (!s->status) s->status = st;
        return GSL_EBADFUNC;
    }
    /* a trial substep that blew up: let GSL retry with a smaller one */
    return tc_nonfinite(dydt, s->dim) ? GSL_FAILURE : GSL_SUCCESS;
}

/* forward-difference Jacobian dfdy (row-major, dfdy[i dim + j] = d f_i / d y_j) and dfdt */
static int flat_jac(double t, const double y[], double *dfdy, double dfdt[], void *params) {
    gsl_state *s = params;
    int n = s->dim, r = flat_f(t, y, s->f0, s);
    if (r) return r;
    memcpy(s->yp, y, (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++) {
        /* the step actually taken (representable), so the quotient has no extra round-off */
        double yj = y[j], h = s->jac_step * fmax(fabs(yj), 1.0);
        s->yp[j] = yj + h;
        h = s->yp[j] - yj;
        if ((r = flat_f(t, s->yp, s->f1, s))) return r;
        for (int i = 0; i < n; i++)
            dfdy[i * n + j] = (s->f1[i] - s->f0[i]) / h;
        s->yp[j] = yj;
    }
    double ht = s->jac_step * fmax(fabs(t), 1.0);
    ht = (t + ht) - t;
    if ((r = flat_f(t + ht, y, s->f1, s))) return r;
    for (int i = 0; i < n; i++)
        dfdt[i] = (s->f1[i] - s->f0[i]) / ht;
    return GSL_SUCCESS;
}

/* the driver (step, control, evolve) and the buffers */
static void gsl_free_state(void *state) {
    gsl_state *s = state;
    if (!s) return;
    if (s->drv) gsl_odeiv2_driver_free(s->drv);
    free(s->y);
    free(s);
}

/* everything a run needs, so that step() itself allocates nothing */
static tc_status gsl_alloc_state(void **state, const stepper *k, const tc_system *sys,
                                 const tc_params *p, tc_error *err) {
    (void)err;
    call_once(&handler_once, handler_off);
    gsl_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->sys = sys;
    s->nq = sys->nq;
    s->nv = sys->nv;
    s->dim = sys->nq + sys->nv;
    s->hmin = tc_params_get(p, "hmin");
    s->jac_step = k->implicit ? tc_params_get(p, "jac_step") : 0;
    /* buffers: y, f0, f1, yp */
    size_t n = (size_t)s->dim + 1;
    s->y = calloc(4 * n, sizeof(double));
    if (!s->y) {
        gsl_free_state(s);
        return TC_ENOMEM;
    }
    s->f0 = s->y + n;
    s->f1 = s->f0 + n;
    s->yp = s->f1 + n;
    /* a system without degrees of freedom needs no driver (GSL rejects dimension 0) */
    if (s->dim > 0) {
        s->gsys = (gsl_odeiv2_system){flat_f, k->implicit ? flat_jac : NULL, (size_t)s->dim, s};
        /* the first substep is set to dt at the first step; hmax stays unbounded */
        s->drv = gsl_odeiv2_driver_alloc_y_new(&s->gsys, *k->type, fmax(1.0, s->hmin),
                                               tc_params_get(p, "atol"), tc_params_get(p, "rtol"));
        if (!s->drv) {
            gsl_free_state(s);
            return TC_ENOMEM;
        }
        gsl_odeiv2_driver_set_hmin(s->drv, s->hmin);
        gsl_odeiv2_driver_set_nmax(s->drv, (unsigned long)tc_params_get(p, "max_substeps"));
    }
    *state = s;
    return TC_OK;
}

/* one touche step: (q, v) -> y, adaptive substeps from t to t + dt, y -> (q, v) */
static tc_status gsl_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                          double *v) {
    gsl_state *s = state;
    if (!s->drv) return TC_OK;
    size_t qb = (size_t)s->nq * sizeof(double), vb = (size_t)s->nv * sizeof(double);
    memcpy(s->y, q, qb);
    memcpy(s->y + s->nq, v, vb);
    if (tc_nonfinite(s->y, s->dim)) return TC_EDIVERGED;
    /* first step: start the substeps at dt (the driver keeps its own guess from then on) */
    if (!s->started) {
        if (!(dt >= s->hmin)) return TC_EINVAL;
        gsl_odeiv2_driver_reset_hstart(s->drv, dt);
        s->started = 1;
    }
    s->ode = ode;
    s->status = TC_OK;
    double t0 = t;
    int r = gsl_odeiv2_driver_apply(s->drv, &t0, t + dt, s->y);
    if (s->status) {
        s->started = 0;
        return s->status;
    }
    /* step-size underflow (hmin, no progress), too many substeps, blow-up: a failed run */
    if (r != GSL_SUCCESS || tc_nonfinite(s->y, s->dim)) {
        s->started = 0;
        return TC_EDIVERGED;
    }
    memcpy(q, s->y, qb);
    memcpy(v, s->y + s->nq, vb);
    tc_system_normalize_q(ode->sys, q);
    return TC_OK;
}

/* one descriptor per table entry: an alloc that picks the entry, the rest shared */
#define GSL_SOLVER(var, idx, sum, prm)                                                             \
    static tc_status var##_alloc(void **state, const tc_system *sys, const tc_params *p,           \
                                 tc_error *err) {                                                  \
        return gsl_alloc_state(state, &steppers[idx], sys, p, err);                                \
    }                                                                                              \
    const tc_solver_type tc_solver_##var = {                                                       \
        .name = #var,                                                                              \
        .summary = sum,                                                                            \
        .params = prm,                                                                             \
        .caps = TC_CAP_DYNAMICS,                                                                   \
        .needs = TC_CAP_CONTINUOUS, /* error control and Newton assume a continuous force */       \
        .alloc = var##_alloc,                                                                      \
        .step = gsl_step,                                                                          \
        .free = gsl_free_state,                                                                    \
    };

GSL_SOLVER(rkf45, 0, "GSL Runge–Kutta–Fehlberg 4(5), adaptive substeps (explicit)", explicit_params)
GSL_SOLVER(rk8pd, 1, "GSL Runge–Kutta Prince–Dormand 8(9), adaptive substeps (reference runs)",
           explicit_params)
GSL_SOLVER(rk4imp, 2, "GSL implicit Gauss 4 (A-stable), adaptive, finite-difference Jacobian",
           implicit_params)
