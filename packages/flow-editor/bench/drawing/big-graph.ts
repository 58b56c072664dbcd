// The benchmark graph: 40 clusters of 25 standard-library nodes (a timer driving a counter, a
// sequence, a branch on a chain of maths over two variables, a store, a once, a delay and a
// gate): 1,000 nodes and 1,080 links (320 event, 760 data), no positions, so the model lays it
// out. Written as SJSON source, opened with FlowDocument like any file.
export const CLUSTERS = 40;
const MATH = ['math/add', 'math/mul', 'math/sub', 'math/min', 'math/max', 'math/lerp', 'math/clamp', 'math/abs', 'math/sqrt', 'math/neg', 'math/floor', 'math/sin', 'math/cos'];

export function bigGraphSource(clusters = CLUSTERS): string {
  const nodes: string[] = [];
  const events: string[] = [];
  const links: string[] = [];
  const node = (id: string, type: string, extra = ''): void => { nodes.push(`    { id = "${id}" type = "${type}"${extra} }`); };
  for (let c = 0; c < clusters; c++) {
    const n = (name: string): string => `c${c}_${name}`;
    node(n('timer'), 'event/timer', ' inputs = { period = 0.5 }');
    node(n('counter'), 'logic/counter', ' inputs = { target = 10 }');
    node(n('seq'), 'logic/sequence');
    node(n('branch'), 'logic/branch');
    node(n('store'), 'variable/set', ' settings = { variable = "health" }');
    node(n('once'), 'logic/once');
    node(n('delay'), 'logic/delay');
    node(n('gate'), 'logic/gate');
    node(n('health'), 'variable/get', ' settings = { variable = "health" }');
    node(n('speed'), 'variable/get', ' settings = { variable = "speed" }');
    MATH.forEach((type, i) => { node(n(`m${i}`), type, type === 'math/clamp' ? ' inputs = { min = 0 max = 100 }' : ''); });
    node(n('compare'), 'logic/compare', ' settings = { op = "<=" } inputs = { b = 0 }');
    node(n('not'), 'logic/not');
    events.push(
      `    { from = "${n('timer')}.tick" to = "${n('counter')}.in" }`,
      `    { from = "${n('counter')}.out" to = "${n('seq')}.in" }`,
      `    { from = "${n('seq')}.out0" to = "${n('branch')}.in" }`,
      `    { from = "${n('branch')}.true" to = "${n('store')}.in" }`,
      `    { from = "${n('branch')}.false" to = "${n('once')}.in" }`,
      `    { from = "${n('once')}.out" to = "${n('delay')}.in" }`,
      `    { from = "${n('delay')}.out" to = "${n('gate')}.in" }`,
      `    { from = "${n('seq')}.out1" to = "${n('gate')}.toggle" }`,
    );
    // A chain through the maths: each node's first input from the one before.
    const first = ['a', 'a', 'a', 'a', 'a', 'a', 'value', 'a', 'a', 'a', 'a', 'a', 'a'];
    links.push(`    { from = "${n('health')}.value" to = "${n('m0')}.a" }`);
    for (let i = 1; i < MATH.length; i++) links.push(`    { from = "${n(`m${i - 1}`)}.result" to = "${n(`m${i}`)}.${first[i]}" }`);
    links.push(
      `    { from = "${n('speed')}.value" to = "${n('m1')}.b" }`,
      `    { from = "${n(`m${MATH.length - 1}`)}.result" to = "${n('compare')}.a" }`,
      `    { from = "${n('compare')}.result" to = "${n('not')}.a" }`,
      `    { from = "${n('not')}.result" to = "${n('branch')}.condition" }`,
      `    { from = "${n('m6')}.result" to = "${n('store')}.value" }`,
      `    { from = "${n('m2')}.result" to = "${n('delay')}.seconds" }`,
    );
  }
  return [
    'flow = 1',
    'kind = "unit"',
    'name = "drawing_benchmark"',
    'variables = {',
    '    health = { type = "float" value = 100 }',
    '    speed = { type = "float" value = 2 }',
    '}',
    'nodes = [',
    ...nodes,
    ']',
    'events = [',
    ...events,
    ']',
    'links = [',
    ...links,
    ']',
    '',
  ].join('\n');
}
