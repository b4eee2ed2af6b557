import { useState } from 'react';
import {
  BLOCK_KINDS,
  BLOCK_NAMES,
  blocksOf,
  documentOf,
  isFormKind,
  newBlock,
  textOf,
  withAttrs,
  withText,
  type BlockKind,
  type BlockNode,
} from './block-document.ts';
import { VariableText } from './VariableText.tsx';
import { ItemMoves } from './ItemMoves.tsx';

// An email body in the block editor's format (`editorType: block`) edited as a form: its blocks
// listed in order, each with its own fields (a heading's level and text, a paragraph's text, a
// button's label and link, an image's address, a spacer's height), added, moved and removed. The
// document's JSON stays one switch away for what the form does not edit (formatting, sections,
// columns, repeats): such blocks are listed by kind and kept as they are.

export interface BlockDocumentFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  variables: string[];
  problem: string | undefined;
  note: React.ReactNode;
}

export function BlockDocumentField({ id, value, onChange, variables, problem, note }: BlockDocumentFieldProps) {
  const blocks = blocksOf(value);
  const [asJson, setAsJson] = useState(blocks === undefined);
  const [kind, setKind] = useState<BlockKind>('paragraph');
  const set = (next: BlockNode[]) => onChange(documentOf(next));
  const change = (index: number, block: BlockNode) => set(blocks!.map((b, i) => (i === index ? block : b)));
  const move = (index: number, offset: -1 | 1) => {
    const next = [...blocks!];
    const [moved] = next.splice(index, 1);
    next.splice(index + offset, 0, moved!);
    set(next);
  };
  const describedBy = problem ? `${id}-problem` : undefined;

  return (
    <fieldset className="block-document" aria-describedby={describedBy}>
      <legend>Body (blocks)</legend>
      <label className="block-json-switch">
        <input type="checkbox" role="switch" checked={asJson} onChange={(event) => setAsJson(event.target.checked)} />
        Edit the document as JSON
      </label>
      {asJson || blocks === undefined ? (
        <>
          <label htmlFor={id} className="visually-hidden">
            Body (block document, JSON)
          </label>
          <VariableText id={id} value={value} onChange={onChange} variables={variables} multiline code invalid={Boolean(problem)} />
          {!asJson && (
            <small className="field-error">This body is not a block document yet: edit its JSON, or empty it to start with blocks.</small>
          )}
        </>
      ) : (
        <>
          {blocks.length === 0 && <p className="empty">No blocks yet: add the first one below.</p>}
          <ol className="block-list">
            {blocks.map((block, index) => (
              <li key={index}>
                <BlockFields
                  id={`${id}-block-${index}`}
                  block={block}
                  position={index + 1}
                  count={blocks.length}
                  variables={variables}
                  onChange={(next) => change(index, next)}
                  onMove={(offset) => move(index, offset)}
                  onRemove={() => set(blocks.filter((_, i) => i !== index))}
                />
              </li>
            ))}
          </ol>
          <div role="group" className="add-block">
            <select aria-label="Kind of block" value={kind} onChange={(event) => setKind(event.target.value as BlockKind)}>
              {BLOCK_KINDS.map((k) => (
                <option key={k} value={k}>
                  {BLOCK_NAMES[k]}
                </option>
              ))}
            </select>
            <button type="button" className="secondary" onClick={() => set([...blocks, newBlock(kind)])}>
              Add block
            </button>
          </div>
        </>
      )}
      {note}
    </fieldset>
  );
}

interface BlockFieldsProps {
  id: string;
  block: BlockNode;
  position: number;
  count: number;
  variables: string[];
  onChange: (block: BlockNode) => void;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}

const ALIGNMENTS = ['left', 'center', 'right'] as const;

function BlockFields({ id, block, position, count, variables, onChange, onMove, onRemove }: BlockFieldsProps) {
  const name = isFormKind(block.type) ? BLOCK_NAMES[block.type] : block.type;
  const title = `Block ${position}: ${name}`;
  const attr = (key: string) => {
    const value = block.attrs?.[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const text = isFormKind(block.type) && ['heading', 'paragraph', 'footer'].includes(block.type) ? textOf(block) : undefined;
  const textField = (label: string, value: string, onText: (text: string) => void, multiline = false) => (
    <div className="control-field">
      <label htmlFor={`${id}-${label.replace(/\W+/g, '-')}`}>{label}</label>
      <VariableText
        id={`${id}-${label.replace(/\W+/g, '-')}`}
        value={value}
        onChange={onText}
        variables={variables}
        multiline={multiline}
      />
    </div>
  );

  return (
    <fieldset className="block-fields" aria-label={title}>
      <div className="block-head">
        <strong>{title}</strong>
        <ItemMoves label={`block ${position}`} position={position} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      {block.type === 'heading' && (
        <label>
          Level
          <select value={attr('level') || '1'} onChange={(event) => onChange(withAttrs(block, { level: Number(event.target.value) }))}>
            <option value="1">1 (largest)</option>
            <option value="2">2</option>
            <option value="3">3</option>
          </select>
        </label>
      )}
      {['heading', 'paragraph', 'footer'].includes(block.type) &&
        (text === undefined ? (
          <p className="empty">Formatted text (marks or inline nodes): edit it in the document’s JSON.</p>
        ) : (
          textField('Text', text, (next) => onChange(withText(block, next)), true)
        ))}
      {block.type === 'button' && (
        <>
          {textField('Label', attr('text'), (next) => onChange(withAttrs(block, { text: next, isTextVariable: false })))}
          {textField('Link', attr('url'), (next) => onChange(withAttrs(block, { url: next, isUrlVariable: false })))}
        </>
      )}
      {block.type === 'image' && (
        <>
          {textField('Image URL', attr('src'), (next) => onChange(withAttrs(block, { src: next, isSrcVariable: false })))}
          {textField('Alternative text', attr('alt'), (next) => onChange(withAttrs(block, { alt: next })))}
        </>
      )}
      {(block.type === 'button' || block.type === 'image') && (
        <label>
          Alignment
          <select value={attr('alignment') || 'left'} onChange={(event) => onChange(withAttrs(block, { alignment: event.target.value }))}>
            {ALIGNMENTS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
      )}
      {block.type === 'spacer' && (
        <label>
          Height (px)
          <input
            type="number"
            min={0}
            step={1}
            value={attr('height')}
            onChange={(event) => onChange(withAttrs(block, { height: event.target.value === '' ? 8 : Number(event.target.value) }))}
          />
        </label>
      )}
      {!isFormKind(block.type) && <p className="empty">Kept as written: edit it in the document’s JSON.</p>}
    </fieldset>
  );
}
