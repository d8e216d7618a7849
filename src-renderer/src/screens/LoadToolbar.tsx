const LOAD_MODES: [onlyIfAllPass: boolean, words: string][] = [
  [true, 'only if every file passes'],
  [false, 'each dataset on its own'],
];

/**
 * What is loaded and how: files or a folder picked, a full load or not, every file or none against each dataset on
 * its own, and the button that loads them. Nothing loads while a load runs, without files, or, every file or none,
 * while a batch would be refused.
 */
export function LoadToolbar({
  files,
  failing,
  running,
  fullLoad,
  onFullLoad,
  onlyIfAllPass,
  onOnlyIfAllPass,
  onPick,
  onLoad,
}: {
  /** How many files are picked. */
  files: number;
  /** How many batches the check would refuse. */
  failing: number;
  running: boolean;
  fullLoad: boolean;
  onFullLoad: (fullLoad: boolean) => void;
  onlyIfAllPass: boolean;
  onOnlyIfAllPass: (onlyIfAllPass: boolean) => void;
  onPick: (files: FileList | null) => void;
  onLoad: () => void;
}) {
  return (
    <div className="toolbar">
      <label>
        Files{' '}
        <input
          type="file"
          name="files"
          accept=".json,.csv,.parquet,.arrow,.feather,.ipc,application/json,text/csv"
          multiple
          onChange={(e) => onPick(e.target.files)}
        />
      </label>
      <label>
        Folder{' '}
        <input
          type="file"
          name="folder"
          multiple
          onChange={(e) => onPick(e.target.files)}
          {...{ webkitdirectory: '' }}
        />
      </label>
      {/* prettier-ignore */}
      <label className="check">
        <input type="checkbox" name="fullLoad" checked={fullLoad} onChange={(e) => onFullLoad(e.target.checked)} />
        {' '}Full load
      </label>
      <span className="hint">or drop files anywhere on this screen</span>
      <span role="radiogroup" aria-label="Load">
        {LOAD_MODES.map(([all, words]) => (
          <label className="check" key={words}>
            <input
              type="radio"
              name="load-mode"
              checked={onlyIfAllPass === all}
              onChange={() => onOnlyIfAllPass(all)}
            />
            {` ${words} `}
          </label>
        ))}
      </span>
      <button type="button" disabled={running || files === 0 || (onlyIfAllPass && failing > 0)} onClick={onLoad}>
        {running ? 'Loading…' : `Load ${files} file${files === 1 ? '' : 's'}`}
      </button>
    </div>
  );
}
