import json, sys
import numpy as np
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
X, y, P0 = [], [], []
under=over=0
for r in rows:
    b = r["bid"]; d = r["dist"][str(b)]; K = sum(d)
    p = [x / K for x in d]
    p0 = p[b]; pm = p[b-1] if b >= 1 else 0; pp = p[b+1] if b+1 < 10 else 0
    X.append([p0, pm, pp]); y.append(float(r["tricks"] == b))
    under += r["tricks"] < b; over += r["tricks"] > b
X = np.array(X); y = np.array(y)
print("n", len(y), "made", y.mean(), "rollout p0 of chosen", X[:,0].mean(), "pm", X[:,1].mean(), "pp", X[:,2].mean(), "under", under, "over", over)
coef, *_ = np.linalg.lstsq(X, y, rcond=None)
res = y - X @ coef
cov = np.linalg.inv(X.T @ X) * (res @ res) / (len(y) - 3)
print("made ~ p0 pm pp:", coef.round(3), "se", np.sqrt(np.diag(cov)).round(3))
# with intercept
X1 = np.c_[np.ones(len(y)), X]
coef1, *_ = np.linalg.lstsq(X1, y, rcond=None)
res = y - X1 @ coef1
cov = np.linalg.inv(X1.T @ X1) * (res @ res) / (len(y) - 4)
print("made ~ 1 p0 pm pp:", coef1.round(3), "se", np.sqrt(np.diag(cov)).round(3))
# by bins of p0
for lo in [0, .3, .5, .7, .9]:
    sel = (X[:,0] >= lo) & (X[:,0] < lo + (0.2 if lo else 0.3) + (0.11 if lo==.9 else 0))
    if sel.sum(): print(f"p0 in [{lo},..): n {sel.sum()} made {y[sel].mean():.3f} p0 {X[sel,0].mean():.3f}")
