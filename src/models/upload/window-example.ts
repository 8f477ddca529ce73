/**
 * The README walkthrough's window model (docs/model-format.md), as the upload example of
 * Swagger UI: executing it as it is creates a model. Without `general.code`, which is
 * unique per supplier, so that uploading it again beside the README's copy succeeds too.
 */
export const WINDOW_MODEL_YAML = `general:
  name: Casement window
  description: Made-to-measure casement window
  currency: EUR
  default_language: en

questions:
  - key: width
    type: integer
    label: Width
    unit: mm
    required: true
    min: 400
    max: 2400
    step: 10
  - key: height
    type: integer
    label: Height
    unit: mm
    required: true
    min: 400
    max: 2400
    step: 10
  - key: frame
    type: choice
    label: Frame material
    required: true
    default: pvc
    options:
      - key: pvc
        label: PVC
      - key: alu
        label: Aluminium
        price: "85.00"
      - key: wood
        label: Wood
        price: "120.00"
  - key: color
    type: choice
    label: Colour
    required: true
    options:
      - key: white
        label: White
      - key: anthracite
        label: Anthracite grey
        price: "40.00"
      - key: oak
        label: Oak finish
        price: "60.00"
  - key: glazing
    type: choice
    label: Glazing
    required: true
    default: double
    options:
      - key: double
        label: Double glazing
      - key: triple
        label: Triple glazing
  - key: extras
    type: multi_choice
    label: Extras
    max_selected: 2
    options:
      - key: screen
        label: Insect screen
        price: "45.00"
      - key: lock
        label: Security lock
        price: "30.00"
        available_if: "frame != 'wood'"
      - key: vent
        label: Trickle vent
        price: "15.00"
  - key: engraving
    type: text
    label: Engraving
    visible_if: "frame == 'wood'"
    max_length: 20

variables:
  - key: area_m2
    expr: "width * height / 1000000.0"
  - key: perimeter_m
    expr: "2.0 * (width + height) / 1000.0"
  - key: large
    expr: "area_m2 > 2.0"

rules:
  - key: max_pvc_width
    when: "frame == 'pvc'"
    assert: "width <= 1800"
    message: PVC frames are at most 1800 mm wide
  - key: frame_colors
    message: This colour is not made for this frame
    allowed:
      columns: [frame, color]
      rows:
        - [pvc, white]
        - [pvc, anthracite]
        - [alu, white]
        - [alu, anthracite]
        - [wood, white]
        - [wood, oak]
  - key: heavy_glass
    severity: warning
    when: "glazing == 'triple'"
    assert: "area_m2 <= 3.0"
    message: Triple glazing above 3 m² needs a second handle

triggers:
  - key: triple_for_large
    when: "large"
    set:
      glazing: triple
    message: Large windows get triple glazing

bom_items:
  - key: profile_pvc
    sku: PRF-PVC-70
    description: PVC frame profile
    when: "frame == 'pvc'"
    quantity: "perimeter_m"
    unit: m
    unit_price: "12.50"
  - key: profile_alu
    sku: PRF-ALU-60
    description: Aluminium frame profile
    when: "frame == 'alu'"
    quantity: "perimeter_m"
    unit: m
    unit_price: "21.00"
  - key: profile_wood
    sku: PRF-WOOD-68
    description: Wooden frame profile
    when: "frame == 'wood'"
    quantity: "perimeter_m"
    unit: m
    unit_price: "26.00"
  - key: glass_double
    sku: GLS-DBL
    description: Double glazing unit
    when: "glazing == 'double'"
    quantity: "area_m2"
    unit: m2
    unit_price: "38.00"
  - key: glass_triple
    sku: GLS-TRP
    description: Triple glazing unit
    when: "glazing == 'triple'"
    quantity: "area_m2"
    unit: m2
    unit_price: "55.00"
  - key: hardware_kit
    sku: KIT-HW
    description: Hardware kit
    quantity: 1
    unit: pcs
    children:
      - key: handle
        sku: HDL-STD
        description: Handle
        quantity: "glazing == 'triple' && area_m2 > 3.0 ? 2 : 1"
        unit: pcs
        unit_price: "18.00"
      - key: hinges
        sku: HNG-2
        description: Hinge
        quantity: 2
        unit: pcs
        unit_price: "6.50"

pricing:
  base_price: "150.00"
  adjustments:
    - key: large_size
      label: Large size surcharge
      when: "large"
      amount: "75.00"
    - key: trade_discount
      label: Trade discount
      percent: "-10"
  rounding:
    scale: 2
    mode: half_up

translation:
  nl:
    general.name: Draairaam
    questions.width.label: Breedte
    questions.height.label: Hoogte
    questions.frame.label: Kozijnmateriaal
    questions.frame.options.wood.label: Hout
    questions.color.label: Kleur
    questions.color.options.white.label: Wit
    questions.color.options.anthracite.label: Antracietgrijs
    rules.max_pvc_width.message: PVC-kozijnen zijn maximaal 1800 mm breed
    pricing.adjustments.trade_discount.label: Handelskorting
  de:
    general.name: Drehfenster
    questions.width.label: Breite
    questions.height.label: Höhe

images:
  - key: outline
    src: https://assets.example.com/window/outline.svg
    layer: 0
    alt: Window outline
  - key: frame_alu
    src: https://assets.example.com/window/frame-alu.svg
    when: "frame == 'alu'"
    layer: 1
    alt: Aluminium frame
`;
