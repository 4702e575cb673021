#include <glpk.h>
#include <limits.h>
#include <setjmp.h>
#include <string.h>

#include "glpk_solve.h"

/* One solve's state, reached from GLPK's hooks through their info pointer. */
typedef struct {
	jmp_buf env;
	const int *cancel;
	ilp_out *out;
	int msg_len;
} call;

/* term_hook keeps GLPK's terminal output (normally silenced; on an error
 * GLPK switches output back on to print why) in out->msg instead of
 * writing it to standard output, keeping the latest text when it is
 * long. Returning non-zero tells GLPK not to print it. */
static int term_hook(void *info, const char *s)
{
	call *c = info;
	int n = (int)strlen(s);
	int cap = ILP_MSG_LEN - 1;
	if (n > cap) {
		s += n - cap;
		n = cap;
	}
	if (c->msg_len + n > cap) {
		int keep = cap - n;
		memmove(c->out->msg, c->out->msg + c->msg_len - keep, keep);
		c->msg_len = keep;
	}
	memcpy(c->out->msg + c->msg_len, s, n);
	c->msg_len += n;
	c->out->msg[c->msg_len] = 0;
	return 1;
}

/* error_hook runs when GLPK hits a fatal error, just before it would call
 * abort(). Jumping back to ilp_solve (no Go frame lies between) is the way
 * out the GLPK manual gives for glp_error_hook. */
static void error_hook(void *info)
{
	call *c = info;
	longjmp(c->env, 1);
}

/* callback counts nodes and stops the search when Go cancels. */
static void callback(glp_tree *T, void *info)
{
	call *c = info;
	int a, n, t;
	glp_ios_tree_size(T, &a, &n, &t);
	if (t > c->out->nodes)
		c->out->nodes = t;
	if (__atomic_load_n(c->cancel, __ATOMIC_RELAXED)) {
		c->out->stopped = 1;
		glp_ios_terminate(T);
	}
}

int ilp_solve(int ncols, const int *kind, const double *lb, const double *ub,
	const double *obj, int nrows, const int *sense, const double *rhs,
	int nnz, const int *ia, const int *ja, const double *ar,
	int maximize, double obj0, int tm_lim, int depth_first,
	const int *cancel, double *x, ilp_out *out)
{
	call c;
	glp_prob *P;
	glp_iocp parm;
	int i, j;

	memset(out, 0, sizeof *out);
	c.cancel = cancel;
	c.out = out;
	c.msg_len = 0;
	/* Output settings and hooks live in the thread's environment, so they
	 * are set on every call: this thread may not have solved before, or
	 * its environment may have been freed after an error. */
	glp_term_out(GLP_OFF);
	glp_term_hook(term_hook, &c);
	glp_error_hook(error_hook, &c);
	if (setjmp(c.env)) {
		/* GLPK's state on this thread is now inconsistent: free all of
		 * it (the problem included); the next call starts afresh. */
		glp_free_env();
		return ILP_GLPK_ERROR;
	}

	P = glp_create_prob();
	glp_set_obj_dir(P, maximize ? GLP_MAX : GLP_MIN);
	glp_set_obj_coef(P, 0, obj0);
	if (ncols > 0)
		glp_add_cols(P, ncols);
	for (j = 1; j <= ncols; j++) {
		if (kind[j] == ILP_BINARY) {
			glp_set_col_kind(P, j, GLP_BV);
		} else {
			glp_set_col_kind(P, j, GLP_IV);
			glp_set_col_bnds(P, j, lb[j] == ub[j] ? GLP_FX : GLP_DB,
				lb[j], ub[j]);
		}
		glp_set_obj_coef(P, j, obj[j]);
	}
	if (nrows > 0)
		glp_add_rows(P, nrows);
	for (i = 1; i <= nrows; i++) {
		switch (sense[i]) {
		case ILP_LE:
			glp_set_row_bnds(P, i, GLP_UP, 0, rhs[i]);
			break;
		case ILP_GE:
			glp_set_row_bnds(P, i, GLP_LO, rhs[i], 0);
			break;
		default:
			glp_set_row_bnds(P, i, GLP_FX, rhs[i], rhs[i]);
		}
	}
	glp_load_matrix(P, nnz, ia, ja, ar);

	glp_init_iocp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.presolve = GLP_ON;
	parm.tm_lim = tm_lim;
	if (depth_first) {
		parm.br_tech = GLP_BR_FFV;
		parm.bt_tech = GLP_BT_DFS;
	}
	parm.cb_func = callback;
	parm.cb_info = &c;
	out->ret = glp_intopt(P, &parm);
	out->mip_status = glp_mip_status(P);
	if (out->mip_status == GLP_OPT || out->mip_status == GLP_FEAS) {
		out->obj = glp_mip_obj_val(P);
		for (j = 1; j <= ncols; j++)
			x[j] = glp_mip_col_val(P, j);
	}
	glp_delete_prob(P);

	/* c lives on this stack frame: take it out of the environment. */
	glp_error_hook(NULL, NULL);
	glp_term_hook(NULL, NULL);
	return ILP_DONE;
}

int ilp_tls(void)
{
	return glp_config("TLS") != NULL;
}

const char *ilp_version(void)
{
	return glp_version();
}
