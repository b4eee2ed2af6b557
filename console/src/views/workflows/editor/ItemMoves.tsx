// Up, down and remove for one item of an ordered list the editor builds (a workflow's steps, an
// email's blocks); `label` names the item for screen readers ("Move Digest up", "Remove block 2").
export function ItemMoves({
  label,
  position,
  count,
  onMove,
  onRemove,
}: {
  label: string;
  position: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <div className="button-row step-moves">
      <button
        type="button"
        className="secondary outline"
        disabled={position === 1}
        onClick={() => onMove(-1)}
        aria-label={`Move ${label} up`}
      >
        ↑
      </button>
      <button
        type="button"
        className="secondary outline"
        disabled={position === count}
        onClick={() => onMove(1)}
        aria-label={`Move ${label} down`}
      >
        ↓
      </button>
      <button type="button" className="secondary outline" onClick={onRemove} aria-label={`Remove ${label}`}>
        Remove
      </button>
    </div>
  );
}
