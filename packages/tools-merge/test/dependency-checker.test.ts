import { mkdtempSync, rmSync, writeFileSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyChanges, DependencyGraph, parseSjson, resourceOf, resourcePath, ToolsMergeError, writeSjson, type DependencyOptions } from '../src/index.ts';
import { loadProject, readProject, runCli } from '../src/node.ts';

const OPTIONS: DependencyOptions = { keyTypes: { material: 'material', textures: 'texture', unit: 'unit' }, rootTypes: ['level'] };

/**
 * A generated project: `n` textures, materials using them, units using materials, and levels
 * placing units; plus one missing texture, one unused texture and one opaque binary.
 */
function generateProject(n: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < n; i++) files.set(`textures/t${i}.texture`, writeSjson({ source: `t${i}.png`, srgb: i % 2 === 0 }));
  for (let i = 0; i < n; i++) {
    const textures = [`textures/t${i}`, `textures/t${(i + 1) % n}`];
    if (i === 3) textures.push('textures/lost');
    files.set(`materials/m${i}.material`, writeSjson({ shader: 'lit', textures }));
  }
  for (let i = 0; i < n; i++) files.set(`units/u${i}.unit`, writeSjson({ material: `materials/m${i}`, mass: i }));
  for (let l = 0; l < 3; l++) {
    const units = [];
    for (let i = l; i < n; i += 3) units.push({ id: `e${l}-${i}`, unit: `units/u${i}`, position: [i, 0, l] });
    // The object form { type, name } is a reference too.
    files.set(`levels/l${l}.level`, writeSjson({ units, sky: { type: 'texture', name: `textures/t${l}` } }));
  }
  files.set('textures/unused.texture', writeSjson({ source: 'unused.png' }));
  files.set('sounds/boom.wav', 'RIFF\u0000\u0001binary');
  return files;
}

describe('DependencyGraph', () => {
  const files = generateProject(30);
  const graph = DependencyGraph.build(files, OPTIONS);

  test('builds the graph: dependencies and referrers', () => {
    expect(graph.resources()).toHaveLength(30 * 3 + 3 + 2);
    expect(graph.dependencies(resourceOf('materials/m3.material')).map(resourcePath)).toEqual([
      'textures/t3.texture',
      'textures/t4.texture',
      'textures/lost.texture',
    ]);
    expect(graph.referrers(resourceOf('textures/t4.texture')).map(resourcePath)).toEqual(['materials/m3.material', 'materials/m4.material']);
    expect(graph.referrers(resourceOf('textures/t1.texture')).map(resourcePath)).toEqual(['materials/m0.material', 'materials/m1.material', 'levels/l1.level']);
    expect(graph.opaque).toEqual(['sounds/boom.wav']);
  });

  test('finds missing and dangling resources', () => {
    expect(graph.missing()).toEqual([{ resource: { type: 'texture', name: 'textures/lost' }, referrers: [{ type: 'material', name: 'materials/m3' }] }]);
    expect(graph.dangling().map(resourcePath)).toEqual(['sounds/boom.wav', 'textures/unused.texture']);
  });

  test('move renames the file and patches every referrer', () => {
    const changes = graph.move(resourceOf('textures/t4.texture'), resourceOf('textures/rock.texture'));
    expect(changes.remove).toEqual(['textures/t4.texture']);
    expect([...changes.write.keys()].sort()).toEqual(['materials/m3.material', 'materials/m4.material', 'textures/rock.texture']);
    const after = DependencyGraph.build(applyChanges(files, changes), OPTIONS);
    expect(after.referrers(resourceOf('textures/rock.texture')).map(resourcePath)).toEqual(['materials/m3.material', 'materials/m4.material']);
    expect(after.exists(resourceOf('textures/t4.texture'))).toBe(false);
    expect(after.missing()).toHaveLength(1); // still only textures/lost
  });

  test('copy redirects only the chosen referrers (splitting a resource)', () => {
    const from = resourceOf('units/u6.unit');
    const to = resourceOf('units/u6_himalaya.unit');
    const changes = graph.copy(from, to, [resourceOf('levels/l0.level')]);
    const after = DependencyGraph.build(applyChanges(files, changes), OPTIONS);
    expect(after.referrers(to).map(resourcePath)).toEqual(['levels/l0.level']);
    expect(after.referrers(from)).toEqual([]);
    expect(after.dependencies(to)).toEqual(graph.dependencies(from));
    // Without a choice nothing is redirected.
    expect([...graph.copy(from, to).write.keys()]).toEqual(['units/u6_himalaya.unit']);
  });

  test('replace points every reference (a missing one too) at another resource', () => {
    const changes = graph.replace(resourceOf('textures/lost.texture'), resourceOf('textures/unused.texture'));
    const after = DependencyGraph.build(applyChanges(files, changes), OPTIONS);
    expect(after.missing()).toEqual([]);
    expect(after.referrers(resourceOf('textures/unused.texture')).map(resourcePath)).toEqual(['materials/m3.material']);
    // The object form is patched as well.
    const sky = DependencyGraph.build(applyChanges(files, graph.replace(resourceOf('textures/t0.texture'), resourceOf('textures/t9.texture'))), OPTIONS);
    expect((parseSjson(sky.files.get('levels/l0.level')!) as { sky: unknown }).sky).toEqual({ type: 'texture', name: 'textures/t9' });
  });

  test('patching keeps the layout and comments of a file, unless the name is also plain data', () => {
    const project = new Map([
      ['textures/a.texture', 'source = "a.png"\n'],
      ['textures/b.texture', 'source = "b.png"\n'],
      ['materials/m.material', '// hand-written, keep me\ntextures = ["textures/a"]   // the albedo\nshader = "lit"\n'],
      ['materials/n.material', 'textures = ["textures/a"]\nnote = "textures/a"\n'],
    ]);
    const g = DependencyGraph.build(project, OPTIONS);
    const changes = g.replace(resourceOf('textures/a.texture'), resourceOf('textures/b.texture'));
    expect(changes.write.get('materials/m.material')).toBe('// hand-written, keep me\ntextures = ["textures/b"]   // the albedo\nshader = "lit"\n');
    // "note" holds the same string but is not a reference: the file is rewritten instead.
    expect(parseSjson(changes.write.get('materials/n.material')!)).toEqual({ textures: ['textures/b'], note: 'textures/a' });
  });

  test('a rebuild from a previous graph parses only changed files and answers as a fresh build does', () => {
    const edited = new Map(files);
    edited.set('units/u2.unit', 'material = "materials/m7"\nmass = 2\n');
    edited.set('units/new.unit', 'material = "materials/m3"\n');
    edited.delete('units/u5.unit');
    const fresh = DependencyGraph.build(edited, OPTIONS);
    const rebuilt = DependencyGraph.build(edited, OPTIONS, graph);
    expect(rebuilt.references).toEqual(fresh.references);
    expect(rebuilt.opaque).toEqual(fresh.opaque);
    expect(rebuilt.resources()).toEqual(fresh.resources());
    expect(rebuilt.referrers(resourceOf('materials/m7.material')).map(resourcePath)).toContain('units/u2.unit');
    expect(rebuilt.referrers(resourceOf('materials/m2.material')).map(resourcePath)).not.toContain('units/u2.unit');
    // A new resource type changes what an unchanged file's {type, name} objects refer to: those
    // are scanned again, not copied.
    const typed = new Map(edited);
    typed.set('fx/spark.particle', 'rate = 3\n');
    typed.set('units/u7.unit', typed.get('units/u7.unit')!);
    const withType = DependencyGraph.build(typed, OPTIONS, rebuilt);
    expect(withType.references).toEqual(DependencyGraph.build(typed, OPTIONS).references);
  });

  test('a rebuild of the same paths with edited texts (a save) answers as a fresh build does', () => {
    const saved = new Map(files);
    saved.set('units/u2.unit', 'material = "materials/m7"\nmass = 2\n');
    const rebuilt = DependencyGraph.build(saved, OPTIONS, graph);
    const fresh = DependencyGraph.build(saved, OPTIONS);
    expect(rebuilt.references).toEqual(fresh.references);
    expect(rebuilt.resources()).toEqual(fresh.resources());
    expect(rebuilt.exists(resourceOf('units/u2.unit')) && !rebuilt.exists(resourceOf('units/gone.unit'))).toBe(true);
    expect(rebuilt.referrers(resourceOf('materials/m7.material')).map(resourcePath)).toContain('units/u2.unit');
    // Other key types over the same paths: every file is scanned again with them.
    const keyed = { ...OPTIONS, keyTypes: { ...OPTIONS.keyTypes, material: 'texture' } };
    const rekeyed = DependencyGraph.build(saved, keyed, rebuilt);
    expect(rekeyed.references).toEqual(DependencyGraph.build(saved, keyed).references);
    expect(rekeyed.references.some((r) => r.to.type === 'texture' && r.to.name.startsWith('materials/'))).toBe(true);
  });

  test('bad requests throw typed errors that say what to do', () => {
    expect(() => graph.move(resourceOf('units/nope.unit'), resourceOf('units/x.unit'))).toThrow(/does not exist/);
    expect(() => graph.move(resourceOf('units/u1.unit'), resourceOf('units/u2.unit'))).toThrow(/already exists/);
    expect(() => graph.move(resourceOf('units/u1.unit'), resourceOf('units/u1.material'))).toThrow(/keeps the type/);
    expect(() => graph.copy(resourceOf('units/u1.unit'), resourceOf('units/c.unit'), [resourceOf('levels/l0.level')])).toThrow(/does not refer/);
    expect(() => resourceOf('noextension')).toThrow(ToolsMergeError);
    expect(() => DependencyGraph.build({} as never)).toThrow(ToolsMergeError);
  });
});

describe('cuttle-merge deps on a project folder', () => {
  test('check, refs, move and copy through the CLI', () => {
    const root = mkdtempSync(join(tmpdir(), 'cuttle-deps-'));
    try {
      for (const [path, text] of generateProject(9)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      writeFileSync(join(root, '.cuttle-deps.sjson'), 'key_types = { material = "material", textures = "texture", unit = "unit" }\nroot_types = ["level"]\n');
      const out: string[] = [];
      const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s) };
      expect(runCli(['deps', 'check', root], io)).toBe(1);
      expect(out.join('')).toContain('missing  textures/lost.texture  (referred to by materials/m3.material)');
      expect(out.join('')).toContain('dangling textures/unused.texture');
      out.length = 0;
      expect(runCli(['deps', 'refs', root, 'units/u4.unit'], io)).toBe(0);
      expect(out.join('')).toBe('units/u4.unit\n  uses      materials/m4.material\n  used by   levels/l1.level\n');
      expect(runCli(['deps', 'move', root, 'materials/m4.material', 'materials/stone.material'], io)).toBe(0);
      expect(existsSync(join(root, 'materials/m4.material'))).toBe(false);
      expect(readFileSync(join(root, 'units/u4.unit'), 'utf8')).toContain('material = "materials/stone"');
      expect(runCli(['deps', 'copy', root, 'units/u4.unit', 'units/u4b.unit', '--referrers', 'levels/l1.level'], io)).toBe(0);
      const graph = loadProject(root);
      expect(graph.referrers(resourceOf('units/u4b.unit')).map(resourcePath)).toEqual(['levels/l1.level']);
      expect(runCli(['deps', 'replace', root, 'textures/lost.texture', 'textures/unused.texture'], io)).toBe(0);
      out.length = 0;
      expect(runCli(['deps', 'check', root], io)).toBe(0);
      expect(readProject(root).has('.cuttle-deps.sjson')).toBe(false);
      expect(runCli(['deps', 'move', root, 'units/none.unit', 'units/x.unit'], io)).toBe(2);
      expect(runCli(['deps', 'frobnicate', root], io)).toBe(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
