/**
 * Every error class in the source tree with the codes its `code` can hold, read from the source
 * so a new class (or a new code of an old one) cannot slip past the error catalog: the test in
 * test/operators/reference-docs.test.ts fails on any code found here that the catalog lacks.
 *
 * Only the files that declare an `…Error` class, and the files that declare the code types they
 * name, are parsed (no type checker: type-checking the tree takes tens of seconds). A code type
 * this reader cannot follow fails the scan by name, so it never passes by reading nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface ErrorClassCodes {
  className: string;
  /** Relative to the scanned root. */
  file: string;
  /** The string codes the class's `code` can hold. */
  codes: string[];
  /**
   * Set when `code` is a plain `string` or `number`; `codes` are then the string literals its
   * constructions pass first (`new FamilyToolError('UNKNOWN_NODE', …)`) anywhere in the tree.
   */
  open?: 'string' | 'number';
}

const SOURCE_DIRS = ['kernel', 'sdk', 'protocol', 'cli', 'plugins'];
const ERROR_CLASS = /\bclass \w+Error\b[^{]*\bextends\b/;

function sourceFiles(root: string): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) texts.set(path, readFileSync(path, 'utf8'));
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(root, dir));
  return texts;
}

export function scanErrorClasses(root: string): ErrorClassCodes[] {
  const texts = sourceFiles(root);
  const parsed = new Map<string, ts.SourceFile>();
  const parse = (file: string) => {
    let sf = parsed.get(file);
    if (!sf) parsed.set(file, (sf = ts.createSourceFile(file, texts.get(file)!, ts.ScriptTarget.ES2022, true)));
    return sf;
  };

  /** The declaration of a type alias or a `const` named `name`: in `from` first, then anywhere. */
  const declaration = (name: string, from: string, kind: 'type' | 'const'): ts.Node => {
    const pattern = kind === 'type' ? new RegExp(`\\btype ${name}\\b\\s*=`) : new RegExp(`\\bconst ${name}\\b`);
    const files = [from, ...[...texts.keys()].filter((f) => f !== from && pattern.test(texts.get(f)!))];
    for (const file of files) {
      let found: ts.Node | undefined;
      parse(file).forEachChild(function visit(node) {
        if (found) return;
        if (kind === 'type' && ts.isTypeAliasDeclaration(node) && node.name.text === name) found = node.type;
        else if (kind === 'const' && ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) found = node.initializer;
        else node.forEachChild(visit);
      });
      if (found) return found;
    }
    throw new Error(`error-class scan: cannot find ${kind} ${name} (named in ${relative(root, from)})`);
  };

  /** String literals of a `const` list or record (`[...] as const`, `{ A: 1 }`). */
  const constValues = (node: ts.Node, keys: boolean): string[] => {
    while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
    if (!keys && ts.isArrayLiteralExpression(node)) return node.elements.filter(ts.isStringLiteral).map((e) => e.text);
    if (keys && ts.isObjectLiteralExpression(node)) return node.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
    throw new Error(`error-class scan: cannot read the values of ${node.getText().slice(0, 60)}`);
  };

  const fromType = (node: ts.TypeNode, file: string): string[] | 'string' | 'number' => {
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return [node.literal.text];
    if (node.kind === ts.SyntaxKind.StringKeyword) return 'string';
    if (node.kind === ts.SyntaxKind.NumberKeyword) return 'number';
    if (ts.isParenthesizedTypeNode(node)) return fromType(node.type, file);
    if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => closed(fromType(t, file), t));
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      if (node.typeName.text === 'Exclude' && node.typeArguments?.length === 2) {
        const drop = new Set(closed(fromType(node.typeArguments[1]!, file), node));
        return closed(fromType(node.typeArguments[0]!, file), node).filter((code) => !drop.has(code));
      }
      const target = declaration(node.typeName.text, file, 'type');
      return fromType(target as ts.TypeNode, target.getSourceFile().fileName);
    }
    // (typeof LIST)[number] and keyof typeof RECORD
    if (ts.isIndexedAccessTypeNode(node) && ts.isParenthesizedTypeNode(node.objectType) && ts.isTypeQueryNode(node.objectType.type)) {
      const target = declaration(node.objectType.type.exprName.getText(), file, 'const');
      return constValues(target, false);
    }
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.KeyOfKeyword && ts.isTypeQueryNode(node.type)) {
      return constValues(declaration(node.type.exprName.getText(), file, 'const'), true);
    }
    throw new Error(`error-class scan: cannot read the code type ${node.getText()} in ${relative(root, file)}; use a literal union or an exported code list`);
  };
  const closed = (codes: string[] | 'string' | 'number', at: ts.Node): string[] => {
    if (typeof codes === 'string') throw new Error(`error-class scan: an open ${codes} inside a code union at ${at.getText().slice(0, 60)}`);
    return codes;
  };

  /** The class's own `code` member: a property (typed or initialized) or a constructor parameter property. */
  const codeOf = (node: ts.ClassDeclaration, file: string): string[] | 'string' | 'number' | undefined => {
    for (const member of node.members) {
      if (ts.isPropertyDeclaration(member) && member.name.getText() === 'code') {
        if (member.type) return fromType(member.type, file);
        let init = member.initializer;
        while (init && ts.isAsExpression(init)) init = init.expression;
        if (init && ts.isStringLiteral(init)) return [init.text];
        throw new Error(`error-class scan: cannot read ${node.name?.text}.code in ${relative(root, file)}`);
      }
      if (ts.isConstructorDeclaration(member)) {
        const param = member.parameters.find((p) => p.name.getText() === 'code' && ts.getModifiers(p)?.length);
        if (param?.type) return fromType(param.type, file);
      }
    }
    return undefined;
  };

  const constructedCodes = (className: string): string[] => {
    const site = new RegExp(`\\bnew ${className}\\(\\s*'([^']+)'`, 'g');
    return [...new Set([...texts.values()].flatMap((text) => [...text.matchAll(site)].map((m) => m[1]!)))].sort();
  };

  const classes: ErrorClassCodes[] = [];
  for (const [file, text] of texts) {
    if (!ERROR_CLASS.test(text)) continue;
    parse(file).forEachChild(function visit(node) {
      if (ts.isClassDeclaration(node) && node.name && /Error$/.test(node.name.text) && node.heritageClauses) {
        const codes = codeOf(node, file);
        if (codes !== undefined) {
          const entry = { className: node.name.text, file: relative(root, file) };
          classes.push(typeof codes === 'string' ? { ...entry, codes: constructedCodes(node.name.text), open: codes } : { ...entry, codes: [...new Set(codes)] });
        }
      }
      node.forEachChild(visit);
    });
  }
  return classes.sort((a, b) => a.className.localeCompare(b.className));
}
