/* The one C entry point of package ilp: build a GLPK problem from plain
 * arrays, solve it as a MIP, copy the answer out and delete the problem,
 * all in one call, so that a glp_prob never outlives the call (and so never
 * straddles OS threads) and a GLPK error can be caught in one place. */
#ifndef SUDOKUAR_ILP_GLPK_SOLVE_H
#define SUDOKUAR_ILP_GLPK_SOLVE_H

/* Column kinds and row senses as package ilp encodes them. */
enum { ILP_BINARY = 1, ILP_INTEGER = 2 };
enum { ILP_LE = 1, ILP_GE = 2, ILP_EQ = 3 };

/* What ilp_solve returns. */
enum {
	ILP_DONE = 0,  /* glp_intopt ran; see ret and mip_status */
	ILP_GLPK_ERROR = 1 /* GLPK called glp_error; msg holds its words */
};

#define ILP_MSG_LEN 1024

typedef struct {
	int ret;        /* glp_intopt's return code */
	int mip_status; /* glp_mip_status after the solve */
	int stopped;    /* the callback saw the cancel flag */
	int nodes;      /* branch-and-bound nodes created (0: none) */
	double obj;     /* glp_mip_obj_val */
	char msg[ILP_MSG_LEN]; /* last terminal output (GLPK's error text) */
} ilp_out;

/* ilp_solve solves the program whose arrays are 1-based, as GLPK's are
 * (element 0 is unused):
 *   ncols columns: kind[j] (ILP_BINARY/ILP_INTEGER), bounds lb[j]..ub[j]
 *     (integers only), objective coefficient obj[j];
 *   nrows rows: sense[i] (ILP_LE/GE/EQ) and right-hand side rhs[i];
 *   nnz matrix elements ar[k] at row ia[k], column ja[k];
 *   maximize != 0 to maximise, obj0 the objective's constant term;
 *   tm_lim the time limit in ms (INT_MAX: none); depth_first != 0 to
 *   branch on the first fractional column and backtrack depth first
 *   (GLP_BR_FFV, GLP_BT_DFS) instead of GLPK's defaults; *cancel != 0
 *   (read atomically) stops the branch and bound at its next step.
 * On ILP_DONE, x[1..ncols] holds the MIP values (when there is one).
 * The caller must have validated the arrays: GLPK treats bad input as a
 * fatal error. Such errors (and GLPK's internal assertions) are still
 * caught, by a glp_error_hook that longjmps back here and frees the
 * thread's GLPK environment, and come back as ILP_GLPK_ERROR. */
int ilp_solve(int ncols, const int *kind, const double *lb, const double *ub,
	const double *obj, int nrows, const int *sense, const double *rhs,
	int nnz, const int *ia, const int *ja, const double *ar,
	int maximize, double obj0, int tm_lim, int depth_first,
	const int *cancel, double *x, ilp_out *out);

/* ilp_tls reports whether this GLPK keeps its environment per thread
 * (built with thread-local storage), so that threads may solve at once. */
int ilp_tls(void);

/* ilp_version returns GLPK's version string. */
const char *ilp_version(void);

#endif
