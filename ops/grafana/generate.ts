// `npm run ops:dashboard`: writes the Grafana dashboard JSON from ops/grafana/dashboard.ts.
// `--check` writes nothing and exits 1 when the committed file is not what the code
// renders (CI; a panel changed without this run, or the JSON edited by hand).
import { writeOrCheck } from '../generated.js';
import { buildDashboard, DASHBOARD_FILE, GENERATE_COMMAND } from './dashboard.js';

// 2-space JSON with a final newline, so diffs stay line-sized.
writeOrCheck([[DASHBOARD_FILE, `${JSON.stringify(buildDashboard(), null, 2)}\n`]], 'ops/grafana/*.ts', GENERATE_COMMAND);
