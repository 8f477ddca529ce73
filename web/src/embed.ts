// The embeddable bundle (dist/app/product-configurator.js): the <product-configurator>
// element alone, for a shop's own page.
import './configurator.js';
