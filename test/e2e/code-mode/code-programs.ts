/**
 * Multi-step code-mode programs against GitHub and Stripe, as a model would write them after a search:
 * list → filter → get, paging, create then read back, calls side by side. Each must run to a result, make at
 * least `minRequests` upstream requests, and every request must be valid for the spec (Prism, behind a
 * recording proxy, is the judge: test/e2e/code-mode/code-prism.test.ts). Prism answers with the spec's examples (or
 * values generated from its schemas), so the programs read fields the spec documents, never real data.
 * (Prism 5.14 answers a few GitHub operations whose example is a `$ref` to `components/examples` with the
 * Example Object itself, `{ value: … }`: programs reading such an answer only check that it came.)
 * `quick` marks the programs `npm test` runs; `npm run e2e:code` runs them all.
 */
export interface CodeProgram {
  api: 'github' | 'stripe';
  name: string;
  code: string;
  minRequests: number;
  quick?: true;
}

const github = (name: string, minRequests: number, code: string, quick?: true): CodeProgram => ({
  api: 'github',
  name,
  code,
  minRequests,
  ...(quick ? { quick } : {}),
});
const stripe = (name: string, minRequests: number, code: string, quick?: true): CodeProgram => ({
  api: 'stripe',
  name,
  code,
  minRequests,
  ...(quick ? { quick } : {}),
});

export const CODE_PROGRAMS: CodeProgram[] = [
  github(
    "list an org's repositories, keep the public ones, get each",
    2,
    `const repos = await api['repos_list-for-org']({ org: 'octo-org', type: 'public', per_page: 5 });
const picked = repos.filter((r) => !r.private).slice(0, 2);
const full = [];
for (const r of picked) full.push(await api.repos_get({ owner: r.owner.login, repo: r.name }));
return full.map((r) => ({ name: r.full_name, stars: r.stargazers_count }));`,
    true,
  ),
  github(
    "page through a repository's open issues",
    3,
    `let all = [];
for (let page = 1; page <= 3; page++) {
  const issues = await api['issues_list-for-repo']({ owner: 'octocat', repo: 'hello-world', state: 'open', per_page: 30, page });
  all = all.concat(issues);
  if (issues.length === 0) break;
}
return { pages: 3, issues: all.length, titles: all.slice(0, 3).map((i) => i.title) };`,
    true,
  ),
  github(
    'create an issue, then read it back and comment on it',
    3,
    `const created = await api.issues_create({ owner: 'octocat', repo: 'hello-world', body: { title: 'Found a bug', body: 'It crashes', labels: ['bug'] } });
const back = await api.issues_get({ owner: 'octocat', repo: 'hello-world', issue_number: created.number });
const comment = await api['issues_create-comment']({ owner: 'octocat', repo: 'hello-world', issue_number: created.number, body: { body: 'Looking into it' } });
return { number: created.number, read: typeof back, comment: comment.id };`,
    true,
  ),
  github(
    'open pull requests and the files of the first',
    2,
    `const pulls = await api.pulls_list({ owner: 'octocat', repo: 'hello-world', state: 'open' });
const first = pulls[0];
const files = await api['pulls_list-files']({ owner: 'octocat', repo: 'hello-world', pull_number: first.number });
return { pull: first.number, files: files.map((f) => f.filename) };`,
  ),
  github(
    'workflow runs in progress, a run, and its jobs',
    3,
    `const runs = await api['actions_list-workflow-runs-for-repo']({ owner: 'octo-org', repo: 'hello-world', status: 'in_progress' });
const run = await api['actions_get-workflow-run']({ owner: 'octo-org', repo: 'hello-world', run_id: runs.workflow_runs[0].id });
const jobs = await api['actions_list-jobs-for-workflow-run']({ owner: 'octo-org', repo: 'hello-world', run_id: run.id, filter: 'latest' });
return { run: run.id, status: run.status, jobs: jobs.jobs.map((j) => j.name) };`,
  ),
  github(
    'releases: the latest, and the same one by id',
    3,
    `const releases = await api['repos_list-releases']({ owner: 'octocat', repo: 'hello-world', per_page: 10 });
const latest = await api['repos_get-latest-release']({ owner: 'octocat', repo: 'hello-world' });
const byId = await api['repos_get-release']({ owner: 'octocat', repo: 'hello-world', release_id: latest.id });
return { count: releases.length, latest: latest.tag_name, same: byId.id === latest.id };`,
  ),
  github(
    'a repository, its branches, and the default branch',
    3,
    `const repo = await api.repos_get({ owner: 'octocat', repo: 'hello-world' });
const branches = await api['repos_list-branches']({ owner: 'octocat', repo: 'hello-world', protected: false });
const main = await api['repos_get-branch']({ owner: 'octocat', repo: 'hello-world', branch: repo.default_branch });
return { default: repo.default_branch, branches: branches.map((b) => b.name), sha: main.commit.sha };`,
  ),
  github(
    'three users side by side',
    3,
    `const users = await Promise.all(['octocat', 'torvalds', 'gaearon'].map((username) => api['users_get-by-username']({ username })));
return users.map((u) => ({ login: u.login, repos: u.public_repos }));`,
  ),
  github(
    "a user's repositories and the latest commits of the first",
    2,
    `const repos = await api['repos_list-for-user']({ username: 'octocat', sort: 'updated', per_page: 5 });
const commits = await api['repos_list-commits']({ owner: repos[0].owner.login, repo: repos[0].name, per_page: 3 });
return { repo: repos[0].full_name, commits: commits.map((c) => c.sha) };`,
  ),
  github(
    'a commit from the list, in full',
    2,
    `const commits = await api['repos_list-commits']({ owner: 'octocat', repo: 'hello-world', per_page: 2 });
const commit = await api['repos_get-commit']({ owner: 'octocat', repo: 'hello-world', ref: commits[0].sha });
return { sha: commit.sha, files: (commit.files ?? []).length, message: commit.commit.message };`,
  ),
  github(
    'search issues, then get the first hit',
    2,
    `const found = await api['search_issues-and-pull-requests']({ q: 'is:open label:bug repo:octocat/hello-world' });
const hit = found.items[0];
const issue = await api.issues_get({ owner: 'octocat', repo: 'hello-world', issue_number: hit.number });
return { total: found.total_count, first: hit.number, read: typeof issue };`,
  ),
  github(
    'create a label, then read it back',
    3,
    `const before = await api['issues_list-labels-for-repo']({ owner: 'octocat', repo: 'hello-world' });
const label = await api['issues_create-label']({ owner: 'octocat', repo: 'hello-world', body: { name: 'triage', color: 'f29513' } });
const back = await api['issues_get-label']({ owner: 'octocat', repo: 'hello-world', name: label.name });
return { before: before.length, created: back.name, color: back.color };`,
  ),
  github(
    'create a gist, then read it back',
    2,
    `const gist = await api.gists_create({ body: { description: 'notes', public: false, files: { 'a.md': { content: '# hi' } } } });
const back = await api.gists_get({ gist_id: gist.id });
return { id: back.id, files: Object.keys(back.files) };`,
  ),
  stripe(
    'list customers, get each',
    2,
    `const page = await api.GetCustomers({ limit: 3 });
const customers = await Promise.all(page.data.map((c) => api.GetCustomersCustomer({ customer: c.id })));
return customers.map((c) => c.id);`,
    true,
  ),
  stripe(
    'page through charges with starting_after',
    3,
    `let after;
const seen = [];
for (let i = 0; i < 3; i++) {
  const page = await api.GetCharges({ limit: 10, ...(after ? { starting_after: after } : {}) });
  seen.push(...page.data.map((c) => c.id));
  after = page.data.length > 0 ? page.data[page.data.length - 1].id : 'ch_none';
}
return { pages: 3, charges: seen.length };`,
    true,
  ),
  stripe(
    'create a customer, then read it back',
    2,
    `const created = await api.PostCustomers({ body: { email: 'jane@example.com', name: 'Jane', metadata: { plan: 'pro' } } });
const back = await api.GetCustomersCustomer({ customer: created.id });
return { id: back.id, email: back.email };`,
    true,
  ),
  stripe(
    'create a product and a price for it, then read the price back',
    3,
    `const product = await api.PostProducts({ body: { name: 'T-shirt' } });
const price = await api.PostPrices({ body: { product: product.id, unit_amount: 2000, currency: 'usd' } });
const back = await api.GetPricesPrice({ price: price.id });
return { product: product.id, price: back.id, amount: back.unit_amount };`,
  ),
  stripe(
    "a customer's open invoices, the first in full",
    2,
    `const invoices = await api.GetInvoices({ customer: 'cus_123', status: 'open', limit: 5 });
const first = invoices.data[0];
const invoice = await api.GetInvoicesInvoice({ invoice: first.id });
return { count: invoices.data.length, first: invoice.id, due: invoice.amount_due };`,
  ),
  stripe(
    'payment intents that need action, each retrieved',
    2,
    `const intents = await api.GetPaymentIntents({ limit: 10 });
const waiting = intents.data.filter((p) => p.status !== 'succeeded').slice(0, 2);
const details = await Promise.all((waiting.length ? waiting : intents.data.slice(0, 1)).map((p) => api.GetPaymentIntentsIntent({ intent: p.id })));
return details.map((p) => ({ id: p.id, status: p.status }));`,
  ),
  stripe(
    'create a payment intent, then read it back',
    2,
    `const intent = await api.PostPaymentIntents({ body: { amount: 1999, currency: 'eur', payment_method_types: ['card'] } });
const back = await api.GetPaymentIntentsIntent({ intent: intent.id });
return { id: back.id, amount: back.amount, currency: back.currency };`,
  ),
  stripe(
    'the balance and its latest transactions',
    3,
    `const balance = await api.GetBalance({});
const txns = await api.GetBalanceTransactions({ limit: 3 });
const first = await api.GetBalanceTransactionsId({ id: txns.data[0].id });
return { available: balance.available.map((b) => b.currency), first: first.id };`,
  ),
  stripe(
    'recent events, one in full',
    2,
    `const events = await api.GetEvents({ limit: 5, type: 'charge.succeeded' });
const event = await api.GetEventsId({ id: events.data[0].id });
return { type: event.type, id: event.id };`,
  ),
  stripe(
    'subscriptions of a customer and their items',
    2,
    `const subs = await api.GetSubscriptions({ customer: 'cus_123', status: 'active', limit: 3 });
const items = await api.GetSubscriptionItems({ subscription: subs.data[0].id });
return { subscriptions: subs.data.length, items: items.data.map((i) => i.id) };`,
  ),
];
