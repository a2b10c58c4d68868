/** serve-handler alone on a built folder, as `serve` would run it: the reference for the preview. */
import { createServer } from 'node:http';
import serveHandler from 'serve-handler';

const [dir, port] = process.argv.slice(2);
const server = createServer((request, response) => void serveHandler(request, response, { public: dir, directoryListing: false }));
server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
